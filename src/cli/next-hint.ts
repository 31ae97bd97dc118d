/**
 * The one "Next:" hint of the CLI, from the recorded state alone: the issue's status, its plan and approval, the
 * execution of that plan (and whether a control signal stopped it), and whether a work branch holds the work. Every
 * place the CLI prints a next command (status, the end of a run, pause/resume/stop, refusals) asks this function, so
 * a hint is always a command the CLI accepts in that state (tests/cli/next-hints.test.ts walks every state).
 */
import { wasStopped, type ExecutionRecord, type IssueState, type Solution } from '../model/index.js'
import { analysePlan } from '../plan/analyse.js'
import { planHash } from '../plan/hash.js'
import { provedBy } from '../report/evidence-words.js'
import { workBranchName } from '../model/state-layout.js'

export interface HintState {
  /** The issue's record (a synced issue not planned yet has only its summary in the run state). */
  issue: Pick<IssueState, 'number' | 'status' | 'error'>
  plan: Solution | undefined
  /** The last recorded run (execute or verify), of whichever plan. */
  execution: ExecutionRecord | undefined
  /** Whether the issue's work branch exists in the repository. */
  workBranch: boolean
  /** Whether the run a `running` record names is alive now (its process runs), when that can be known. */
  runAlive?: boolean | undefined
}

export interface NextHint {
  /** The command line, with `<issue.md>` or `<agent>` where the user fills in their own. */
  command: string
  /** Why this is next, when the command alone does not say it. */
  why?: string
}

/** Placeholders a hint may hold: the user's issue file, and their agent preset or executor command. */
export const HINT_PLACEHOLDERS = { issueFile: '<issue.md>', agent: '<agent>' } as const

export function nextHint({ issue, plan, execution, workBranch, runAlive }: HintState): NextHint | undefined {
  const n = issue.number
  const planAgain = `converge plan --issue-file ${HINT_PLACEHOLDERS.issueFile} --number ${n}`
  // The executor the last run used, as a shell word; the placeholder when there was none (or `none`).
  const agent = execution?.executor ? shellWord(execution.executor) : HINT_PLACEHOLDERS.agent
  const execute = `converge execute --number ${n} --executor ${agent}`
  if (!plan) return { command: planAgain, why: issue.error ? 'the last plan was rejected: fix the issue or its plan' : 'no plan yet' }
  if (issue.status === 'paused') return { command: `converge resume --number ${n}`, why: 'paused' }
  if (wasStopped(issue)) return { command: `converge resume --number ${n}`, why: 'stopped: resume, then execute goes on where it stopped' }
  if (issue.status === 'failed' && issue.error?.startsWith('Plan rejected')) return { command: planAgain, why: 'the last plan was rejected: fix the issue or its plan' }
  const hash = planHash(plan)
  const analysis = analysePlan(plan, n)
  if (analysis.errors.length || analysis.gate === 'fail') return { command: planAgain, why: 'the plan fails its quality gate: improve the issue, then plan again' }
  if (plan.approval?.plan_hash !== hash)
    return { command: `converge approve --number ${n}`, why: plan.approval ? 'the plan changed after its approval' : 'read it first: converge show --number ' + n }
  const current = execution?.plan_hash === hash ? execution : undefined
  if (!current) return { command: execute }
  const results = Object.values(current.tasks)
  if (current.status === 'running' && runAlive && current.run)
    return { command: `converge stop --number ${n}`, why: `${current.mode === 'verify' ? 'being verified' : 'being executed'} by ${current.run} since ${current.started_at}: wait for it to end, or stop it` }
  if (current.status === 'running')
    return { command: execute, why: 'recorded as running: if no execute is running now, this goes on where the last one stopped' }
  if (current.mode === 'verify') {
    if (current.status === 'completed') return workBranch ? { command: `converge verify --number ${n}`, why: `verified; the work is on ${workBranchName(n)}` } : undefined
    const failed = results.filter((r) => r.status === 'failed').map((r) => r.task_id)
    // The execution completed, and its work no longer passes: those tasks again (retry takes completed tasks by name).
    if (failed.length && plan.tasks.every((task) => current.executed_tasks?.[task.id]?.status === 'completed'))
      return { command: `converge retry ${failed.join(' ')} --number ${n} --executor ${agent}`, why: 'the converged work no longer passes these checks' }
    return { command: execute, why: 'verification found tasks not done: an agent does them, then each is verified again' }
  }
  if (results.some((r) => r.status === 'failed')) return { command: `converge retry --number ${n} --executor ${agent}`, why: 'the failed tasks again, with what failed fed back' }
  if (current.status !== 'completed' || results.length < plan.tasks.length) return { command: execute, why: 'tasks are left' }
  // Completed is not converged: a task whose change its checks did not prove (it changed nothing, or its checks
  // passed before it too) is named, and done again; one with no command to prove it waits for a person.
  const unproven = results.filter((r) => !provedBy(r))
  const again = unproven.filter((r) => r.evidence?.kind === 'no-change' || r.evidence?.kind === 'unproven').map((r) => r.task_id)
  if (again.length)
    return { command: `converge retry ${again.join(' ')} --number ${n} --executor ${agent}`, why: `${again.join(', ')} completed without proof (${results.length - unproven.length} of ${results.length} converged with proof): done again, with an executor that changes what the task asks` }
  if (!workBranch) return undefined
  const person = unproven.map((r) => r.task_id)
  return {
    command: `converge verify --number ${n}`,
    why: person.length
      ? `every task completed; ${person.join(', ')} ${person.length === 1 ? 'has' : 'have'} no check that proves ${person.length === 1 ? 'it' : 'them'}: review ${workBranchName(n)}`
      : `every task converged; review ${workBranchName(n)}, and verify runs every check again`,
  }
}

/** A command line as one shell word: bare when it is one already, else quoted (`"node 'fix.mjs'"`). */
export function shellWord(text: string): string {
  if (/^[\w@%+=:,./-]+$/.test(text)) return text
  if (!/["$`\\!]/.test(text)) return `"${text}"`
  return `'${text.replace(/'/g, `'\\''`)}'`
}

/** `  Next: <command>  (why)` for the end of a report, or nothing when there is nothing to do. */
export function hintLine(hint: NextHint | undefined): string[] {
  return hint ? [`  Next: ${hint.command}${hint.why ? `  (${hint.why})` : ''}`] : []
}
