/**
 * The debug phase's input: `feedback.md`, what kept an attempt from converging, written for the next attempt
 * (and quoted in its prompt). The failed commands with the part of their output that explains them, then the
 * criteria not met.
 */
import type { ConvergenceCheck } from '../model/index.js'
import { failureHeadline, outputLines, SIGNIFICANT } from './failure-text.js'

const TAIL_LINES = 30
const SIGNIFICANT_LINES = 20

/** `feedback.md`: what kept an attempt from converging, for the next one. */
export function feedbackMarkdown(commands: ConvergenceCheck[], criteria: ConvergenceCheck[], attempt: number): string {
  const parts = [`# Failures of attempt ${attempt}`]
  for (const check of commands.filter((c) => c.verdict === 'fail')) {
    parts.push(`## ${failureHeadline(check)}`)
    if (check.output_tail?.trim()) parts.push(fenced(relevantOutput(check.output_tail)))
  }
  // Unreported criteria matter only where they decide: when there is no command.
  const unmet = criteria.filter((c) => c.verdict === 'fail' || (commands.length === 0 && c.verdict === 'pending'))
  if (unmet.length > 0) {
    const explain = (c: ConvergenceCheck) =>
      c.verdict === 'pending' ? ' (not in your report)' : c.output_tail ? ` — ${c.output_tail}` : ''
    parts.push('## Criteria not met', unmet.map((c) => `- ${c.text}${explain(c)}`).join('\n'))
  }
  return `${parts.join('\n\n')}\n`
}

/** The end of the output, preceded by the error-looking lines from before it. */
function relevantOutput(output: string): string {
  const lines = outputLines(output)
  if (lines.length <= TAIL_LINES + SIGNIFICANT_LINES) return lines.join('\n')
  const earlier = lines.slice(0, -TAIL_LINES).filter((l) => SIGNIFICANT.test(l)).slice(-SIGNIFICANT_LINES)
  return [...earlier, `… (${lines.length - TAIL_LINES - earlier.length} lines left out)`, ...lines.slice(-TAIL_LINES)].join('\n')
}

/** A fence longer than any backtick run in the text, so output cannot close it. */
function fenced(text: string): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length))
  const fence = '`'.repeat(Math.max(3, longest + 1))
  return `${fence}text\n${text}\n${fence}`
}
