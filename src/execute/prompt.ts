/**
 * The prompt an executor (Claude Code, Codex, aider, a script…) receives for one task, as markdown in
 * `$CONVERGE_PROMPT_FILE`, and the structured report it may write back to `$CONVERGE_RESULT_FILE`.
 *
 * Guidance comes in the order of `task-generation-execution-spec.md` ("Execution Guidance Priority"): the most
 * concrete first — per file its `changes`, then the `implementation` steps with their `actions`, then the step
 * descriptions, then the task's `description` as background.
 */
import { z } from 'zod'
import type { Task } from '../model/index.js'
import { verificationEntries } from '../model/verification.js'

/** What an executor may write to `$CONVERGE_RESULT_FILE` (JSON). Unknown keys are ignored. */
export const ExecutorReportSchema = z.object({
  /** One entry per criterion it checked, with the criterion's text as written in the task. */
  criteria: z
    .array(z.object({ text: z.string(), met: z.boolean(), evidence: z.string().optional() }))
    .default([]),
  summary: z.string().optional(),
})

export type ExecutorReport = z.infer<typeof ExecutorReportSchema>

export interface PromptContext {
  issue: { number: number; title: string }
  solutionId: string
  /** The failures of the previous attempt (markdown), for a retry. */
  feedback?: string
}

export function taskPrompt(task: Task, context: PromptContext): string {
  const sections = [
    header(task, context),
    context.feedback?.trim() ? previousAttempt(context.feedback) : undefined,
    guidance(task),
    doneWhen(task),
    verification(task),
    REPORT_SECTION,
  ]
  return `${sections.filter((s) => s !== undefined).join('\n\n')}\n`
}

function header(task: Task, { issue, solutionId }: PromptContext): string {
  const facts = [`Type: ${task.type}`, `Action: ${task.action}`, `Priority: ${task.priority}`, `Effort: ${task.effort}`]
  if (task.scope) facts.push(`Scope: ${task.scope}`)
  return [
    `# ${task.id}: ${task.title}`,
    '',
    `Issue #${issue.number}: ${issue.title}`,
    `Solution ${solutionId} · ${facts.join(' · ')}`,
    '',
    'Make the changes this task describes in the repository in the current directory. When you are done, the',
    'verification commands below are run and their exit codes decide whether the task has converged.',
    'Do not commit: Converge commits the task once it has converged.',
  ].join('\n')
}

function previousAttempt(feedback: string): string {
  return [
    '## The previous attempt did not converge',
    '',
    'Fix these failures first; the same checks are run again after this attempt.',
    '',
    feedback.trim(),
  ].join('\n')
}

function guidance(task: Task): string {
  const parts = [
    '## What to do',
    '',
    'Follow the most concrete guidance first: the changes listed per file, then the actions of each',
    'implementation step, then the step descriptions, then the task description. Where they disagree, the more',
    'concrete one wins.',
  ]
  if (task.files.length > 0) {
    parts.push('', '### Files')
    for (const file of task.files) {
      const target = file.target ? `, target \`${file.target}\`` : ''
      parts.push('', `- \`${file.path}\` (${file.action}${target})`)
      for (const change of file.changes) parts.push(`  - ${change}`)
    }
  }
  if (task.implementation.length > 0) {
    parts.push('', '### Implementation steps', '')
    task.implementation.forEach((step, i) => {
      parts.push(`${i + 1}. ${step.description || `Step ${step.step}`}`)
      for (const action of step.actions) parts.push(`   - ${action}`)
    })
  }
  if (task.description) parts.push('', '### Background', '', task.description)
  return parts.join('\n')
}

function doneWhen(task: Task): string | undefined {
  const { criteria, definition_of_done } = task.convergence
  if (criteria.length === 0 && !definition_of_done) return undefined
  const parts = ['## Done when']
  if (criteria.length > 0) parts.push('', ...criteria.map((c) => `- [ ] ${c}`))
  if (definition_of_done) parts.push('', `Definition of done: ${definition_of_done}`)
  return parts.join('\n')
}

function verification(task: Task): string {
  const entries = verificationEntries(task)
  const commands = entries.flatMap((e) => (e.kind === 'command' ? [e.command!] : []))
  const manual = entries.filter((e) => e.kind === 'manual').map((e) => e.text)
  const parts = ['## Verification', '']
  if (commands.length > 0)
    parts.push('These commands are run from the repository root; each must exit with 0:', '', '```sh', ...commands, '```')
  else
    parts.push(
      'This task has no verification command: it converges only when your report (below) marks every criterion as met.',
    )
  if (manual.length > 0) parts.push('', 'Checked by a person (report them too if you can):', '', ...manual.map((m) => `- ${m}`))
  return parts.join('\n')
}

const REPORT_SECTION = `## Report (optional)

You may write a JSON report to the file named by \`$CONVERGE_RESULT_FILE\`:

\`\`\`json
{
  "criteria": [{ "text": "<a criterion, as written above>", "met": true, "evidence": "<what shows it>" }],
  "summary": "<what you changed>"
}
\`\`\`

A criterion that is not a command is counted as met only when this report says so; otherwise it is left for
manual review. Commands are always judged by their own exit codes, whatever the report says.`
