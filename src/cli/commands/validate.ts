import { readFile } from 'node:fs/promises'
import { issueNumberFromFileName } from '../../model/ids.js'
import { analysePlanText, type PlanAnalysis } from '../../plan/analyse.js'
import { planFileText } from '../../plan/plan-file.js'
import { renderPlanText } from '../../report/plan-text.js'
import type { CliIo } from '../io.js'
import { UsageError } from '../usage-error.js'

/**
 * `converge validate <plan>`: exit 0 for a usable plan, 1 with every error and finding otherwise. The file is
 * a JSON solution (CCW's or Converge's), a Taskmaster `tasks.json`, Markdown with a ```json block, or a
 * `.jsonl` of solutions, validated one by one with `--all`. The issue is `--number`, else the file's name as CCW
 * names it (`GH-123.jsonl`, `ISS-123.json`, `GH-123-solution.json`), else the plan's own.
 */
export async function validateCommand(
  args: { positionals: string[]; json: boolean; all?: boolean; number?: number }, io: CliIo,
): Promise<number> {
  const [file, ...more] = args.positionals
  if (!file) throw new UsageError('validate needs a plan file: converge validate <plan.json>')
  if (more.length) throw new UsageError(`validate takes one plan file, got ${args.positionals.length} (${args.positionals.join(', ')}): validate them one at a time, or put them in a .jsonl and use --all`)
  const text = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    throw error.code === 'ENOENT' ? new UsageError(`${file}: no such file`) : error
  })
  const input = planFileText(text, file)
  if (input.form === 'markdown-without-plan')
    throw new UsageError(`${file} is Markdown with no \`\`\`json block: validate takes a JSON plan (or Markdown holding one in a \`\`\`json block)`)
  if (input.form === 'jsonl' && !args.all)
    throw new UsageError(`${file} holds ${input.lines.length} solutions, one per line: pass one, or use --all to validate each`)
  const issue = args.number ?? issueNumberFromFileName(file)
  const plans = input.form === 'jsonl'
    ? input.lines.map((l) => ({ label: `${file}:${l.line}`, analysis: analysePlanText(l.text, issue) }))
    : [{ label: file, analysis: analysePlanText(input.text, issue) }]
  // --json is one document: the report, or for a .jsonl the list of them, each with the line it is from.
  if (args.json && input.form === 'jsonl') io.out(JSON.stringify(plans.map(({ label, analysis }) => ({ plan: label, ...jsonReport(analysis) })), null, 2))
  else if (args.json) io.out(JSON.stringify(jsonReport(plans[0]!.analysis), null, 2))
  else for (const { label, analysis } of plans) io.out(`${label}\n${renderPlanText(analysis)}`)
  return plans.some(({ analysis }) => analysis.errors.length || analysis.gate === 'fail') ? 1 : 0
}

function jsonReport(analysis: PlanAnalysis) {
  const { solution: _solution, ...report } = analysis
  return report
}
