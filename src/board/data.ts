/**
 * The board's data (also written beside the page as board.json): pure, from what the state branch holds.
 * Command output is masked for credential shapes: a board may be published on GitHub Pages.
 */
import { runUsage, taskUsage, totalTokens } from '../agents/usage.js'
import type { AgentUsage, IssueStatus, RunState } from '../model/index.js'
import { executionOfPlan } from '../model/index.js'
import { workBranchName } from '../model/state-layout.js'
import { analyseSolution } from '../plan/analyse.js'
import { planHash } from '../plan/hash.js'
import { openBlockers } from '../queue/blockers.js'
import { stripAnsi } from '../report/ansi.js'
import { evidenceSentence, KIND_LABEL } from '../report/evidence-words.js'
import { elapsedMs } from '../report/format.js'
import { maskTokenShapes } from '../model/secrets.js'
import { approvalOf, buildView, type TaskState } from '../report/task-view.js'
import { type BoardExecution, type BoardInput, type BoardTaskResult, type EvidenceColumn, type EvidenceRun, type IssueFiles } from './input.js'
import { noEvidence } from './totals.js'
import { readTimeline, type TimelineEntry } from './timeline.js'
import { boardTotals, type BoardTotals } from './totals.js'

export interface BoardCheck {
  kind: 'criterion' | 'command'
  text: string
  verdict: 'pass' | 'fail' | 'pending'
  /** How it is checked: a command's exit code, the agent's report, or a person. */
  how: 'command' | 'agent' | 'manual'
  exit_code: number | null
  duration_ms: number | null
  /** The output's end, cleaned; null when none was recorded, and in `board.json` (see {@link withoutOutputs}). */
  output_tail: string | null
}

export interface BoardTask {
  id: string
  title: string
  state: TaskState
  wave: number | null
  depends_on: string[]
  /** The word its badge shows: its state, or for a completed task its evidence does not prove, what the evidence is. */
  badge: string
  /** The files it names or changed: lines added and removed when the record has them, its own check files marked. */
  files: BoardFile[]
  checks: BoardCheck[]
  evidence: BoardEvidence | null
  commit: string | null
  attempts: number
  duration_ms: number | null
  executed_at: string | null
  error: string | null
  /** The agent that did it (from its output's form), `none` when no executor ran. */
  agent: string
  cost_usd: number | null
  tokens: number | null
}

export interface BoardFile {
  path: string
  /** The plan's action for it (create, modify, …); null for a file the task changed unasked. */
  action: string | null
  changed: boolean
  added: number | null
  removed: number | null
  /** A binary file: git counts no lines in it. */
  binary: boolean
  /** A check file the task wrote or changed itself: its proof rests on it. */
  check: boolean
}

export interface BoardEvidence {
  kind: EvidenceColumn
  /** The one sentence the other reports say of it (src/report/evidence-words.ts). */
  sentence: string
  before: BoardRun[]
  after: BoardRun[]
  check_files: string[]
  differential: { forward: BoardRun[]; reverse: BoardRun[] } | null
}

/** A command run as evidence; its output null in `board.json` (see {@link withoutOutputs}). */
export type BoardRun = Omit<EvidenceRun, 'output_tail'> & { output_tail: string | null }

/** Plans larger than this are shown as a summary (task counts by state), without their tasks or graph. */
export const MAX_TASKS_SHOWN = 1_000
/** Tasks the whole board shows in detail: the issues after the budget is spent are shown as summaries. */
export const MAX_BOARD_TASKS = 60_000

export interface BoardIssue {
  number: number
  title: string
  status: IssueStatus | 'unknown'
  labels: string[]
  error: string | null
  solution_id: string | null
  gate: 'pass' | 'review' | 'fail' | null
  quality_score: number | null
  approval: { by: string; hash: string; at: string; current: boolean } | null
  evidence: Record<EvidenceColumn, number>
  attempts: number
  duration_ms: number | null
  cost_usd: number | null
  tokens: number | null
  links: { issue: string | null; pull_request: string | null; branch: string; branch_url: string | null }
  /** What it waits for before it can run, in words. */
  waits: string[]
  parent: number | null
  children: number[]
  tasks: BoardTask[]
  /** Tasks of the plan not shown (a plan larger than the board shows): the issue is shown as a summary. */
  tasks_hidden: number
  timeline: TimelineEntry[]
  /** State files of this issue that could not be read. */
  problems: string[]
}

export interface BoardQueueItem {
  item_id: string
  issue: number
  title: string
  status: string
  group: string | null
  position: number | null
  waits: string[]
}

export interface BoardData {
  branch: string
  head: string | null
  generated_at: string
  queue: BoardQueueItem[]
  issues: BoardIssue[]
  totals: BoardTotals
  problems: string[]
}

export function buildBoardData(input: BoardInput, generatedAt: string): BoardData {
  const { shown } = tasksShown(input.issues.map((files) => files.plan?.tasks.length ?? 0))
  return boardDataOf(input, input.issues.map((files, i) => boardIssue(files, input.run, shown[i]!)), generatedAt)
}

/**
 * Which issues' tasks the board shows, from their plans' sizes in the order of the state's issues (the board's task
 * budget is spent in that order), and the budget left for the issues after them.
 */
export function tasksShown(sizes: readonly number[], budget = MAX_BOARD_TASKS): { shown: boolean[]; left: number } {
  const shown = sizes.map((size) => {
    const fits = size <= MAX_TASKS_SHOWN && size <= budget
    if (fits) budget -= size
    return fits
  })
  return { shown, left: budget }
}

/** The board's data from its issues' (the queue, the totals). */
export function boardDataOf(input: BoardInput<unknown>, issues: BoardIssue[], generatedAt: string): BoardData {
  const run = input.run
  const byNumber = new Map(issues.map((issue) => [issue.number, issue]))
  const queue = (run?.queue ?? []).map((item): BoardQueueItem => {
    const number = Number(/\d+$/.exec(item.issue_id)?.[0])
    const issue = byNumber.get(number)
    const conflict = item.depends_on?.length ? [`file conflict: ${item.reason ?? `after ${item.depends_on.join(', ')}`}`] : []
    return {
      item_id: item.item_id, issue: number, title: issue?.title ?? item.issue_id, status: item.status,
      group: item.group ?? null, position: item.position ?? null, waits: [...(issue?.waits ?? []), ...conflict],
    }
  })
  return { branch: input.branch, head: input.head, generated_at: generatedAt, queue, issues, totals: boardTotals(issues), problems: input.problems }
}

/**
 * The issue as `board.json` holds it: every command output (`output_tail`) null. The outputs are most of a board's
 * bytes and are shown by the issue's own page (`issues/<n>.js`), made from the whole issue.
 */
export function withoutOutputs(issue: BoardIssue): BoardIssue {
  const runs = (list: BoardRun[]) => list.map((r) => ({ ...r, output_tail: null }))
  return {
    ...issue,
    tasks: issue.tasks.map((t) => ({
      ...t,
      checks: t.checks.map((c) => ({ ...c, output_tail: null })),
      evidence: t.evidence && {
        ...t.evidence, before: runs(t.evidence.before), after: runs(t.evidence.after),
        differential: t.evidence.differential && { forward: runs(t.evidence.differential.forward), reverse: runs(t.evidence.differential.reverse) },
      },
    })),
  }
}

/** An issue's data; `shown`: its tasks are shown (see {@link tasksShown}). */
export function boardIssue(files: IssueFiles, run: RunState | undefined, shown: boolean): BoardIssue {
  const { issue, plan, execution } = files
  const summary = run?.issues[`ISS-${files.number}`]
  const status = issue?.status ?? summary?.status ?? 'unknown'
  const hash = plan ? planHash(plan) : null
  const view = plan && shown ? buildView({ issue: { number: files.number, title: issue?.title ?? '' }, status: status === 'unknown' ? 'registered' : status, solution: plan, analysis: analyseSolution(plan), ...(execution ? { execution } : {}), commandPrefix: '/converge', links: {} }, approvalOf(plan, hash!)) : undefined
  const clean = outputCleaner()
  const tasks = (view?.tasks ?? []).map((t) => boardTask(t.task.id, t, execution?.tasks[t.task.id], clean))
  const evidence = noEvidence()
  if (shown) {
    for (const task of tasks) if (task.evidence) evidence[task.evidence.kind]++
  } else {
    for (const result of Object.values(execution?.tasks ?? {})) if (result.status !== 'skipped') evidence[result.evidence?.kind ?? 'not-recorded']++
  }
  const usage = runUsage((hash && executionOfPlan(execution, hash)) || execution)
  const repo = repositoryUrl(issue?.url ?? null)
  const branch = workBranchName(files.number)
  return {
    number: files.number,
    title: issue?.title ?? summary?.title ?? `ISS-${files.number}`,
    status,
    labels: issue?.labels ?? [],
    error: issue?.error ? cleanOutput(issue.error) : null,
    solution_id: plan?.id ?? issue?.solution_id ?? null,
    gate: view?.analysis?.gate ?? null,
    quality_score: view?.analysis?.quality?.quality_score ?? null,
    approval: plan?.approval ? { by: plan.approval.approved_by, hash: plan.approval.plan_hash, at: plan.approval.approved_at, current: plan.approval.plan_hash === hash } : null,
    evidence,
    attempts: tasks.reduce((sum, t) => sum + t.attempts, 0),
    duration_ms: execution ? (elapsedMs(execution.started_at, execution.executed_at) ?? sumDurations(execution)) : null,
    cost_usd: usage?.cost_usd ?? null,
    tokens: usage ? totalTokens(usage) : null,
    links: {
      issue: repo ? `${repo}/issues/${files.number}` : null,
      pull_request: repo ? `${repo}/pulls?q=${encodeURIComponent(`is:pr head:${branch}`)}` : null,
      branch,
      branch_url: repo ? `${repo}/tree/${branch}` : null,
    },
    waits: waitsOf(files, status, run, plan ? plan.approval?.plan_hash === hash : false),
    parent: issue?.parent ?? null,
    children: issue?.children ?? [],
    tasks,
    tasks_hidden: shown ? 0 : plan?.tasks.length ?? 0,
    timeline: readTimeline(files.events),
    problems: files.problems,
  }
}

type View = NonNullable<ReturnType<typeof buildView>>['tasks'][number]

function boardTask(id: string, view: View, result: BoardTaskResult | undefined, clean: (output: string) => string): BoardTask {
  const usage: AgentUsage | undefined = taskUsage(result)
  return {
    id,
    title: view.task.title,
    state: view.state,
    wave: view.wave ?? null,
    depends_on: view.task.depends_on,
    badge: view.state === 'unproven' && result?.evidence ? KIND_LABEL[result.evidence.kind] : view.state,
    files: filesOf(view.task.files, result),
    checks: view.checks.map((c) => ({
      kind: c.kind, text: c.text, verdict: c.verdict, how: c.verified_by,
      exit_code: c.exit_code ?? null, duration_ms: c.duration_ms ?? null, output_tail: c.output_tail === undefined ? null : clean(c.output_tail),
    })),
    evidence: evidenceOf(id, result, clean),
    commit: result?.commit_hash ?? null,
    attempts: result?.attempts ?? 0,
    duration_ms: result?.duration_ms ?? null,
    executed_at: result?.executed_at ?? null,
    error: result?.error ? cleanOutput(result.error) : null,
    agent: agentOf(result),
    cost_usd: usage?.cost_usd ?? null,
    tokens: usage ? totalTokens(usage) : null,
  }
}

/** Command output as the page shows it: colour and cursor codes removed, credential shapes masked. */
export function cleanOutput(output: string): string {
  return maskTokenShapes(stripAnsi(output))
}

/**
 * `cleanOutput` for one issue, remembering what it cleaned lately: a task's runs after the change are its checks'
 * runs (the same output twice), and a baseline can be the task before's. Found by comparing (cheap for texts that
 * differ early or in length), not by a Map: hashing each 6 KB output costs about as much as cleaning it. Only the
 * last few are kept, so an issue of a thousand tasks is not compared against all it has shown.
 */
function outputCleaner(): (output: string) => string {
  const seen: Array<[string, string]> = []
  return (output) => {
    for (const [raw, text] of seen) if (raw === output) return text
    const text = cleanOutput(output)
    if (seen.unshift([output, text]) > RECENT_OUTPUTS) seen.pop()
    return text
  }
}

/** How many cleaned outputs an issue's cleaner compares a new one with: a few tasks' worth of checks. */
const RECENT_OUTPUTS = 32

function evidenceOf(id: string, result: BoardTaskResult | undefined, clean: (output: string) => string): BoardEvidence | null {
  if (!result || result.status === 'skipped') return null
  const none = { before: [], after: [], check_files: [], differential: null }
  if (!result.evidence) return { kind: 'not-recorded', sentence: `${id}: no evidence recorded (a record of an earlier version)`, ...none }
  const e = result.evidence
  const cleanRuns = (runs: EvidenceRun[] | undefined) => (runs ?? []).map((r) => ({ ...r, output_tail: clean(r.output_tail) }))
  const differential = e.forward?.length || e.reverse?.length ? { forward: cleanRuns(e.forward), reverse: cleanRuns(e.reverse) } : null
  return { kind: e.kind, sentence: evidenceSentence(id, e), before: cleanRuns(e.before), after: cleanRuns(e.after), check_files: (e.check_files ?? []).map((f) => f.path), differential }
}

/** The plan's files, then those the task changed unasked; each with its lines when recorded, check files marked. */
function filesOf(planned: ReadonlyArray<{ path: string; action: string }>, result: BoardTaskResult | undefined): BoardFile[] {
  const changed = new Set(result?.files_modified ?? [])
  const stats = new Map((result?.file_stats ?? []).map((f) => [f.path, f]))
  const checks = new Set((result?.evidence?.check_files ?? []).map((f) => f.path))
  const actions = new Map(planned.map((f) => [f.path, f.action]))
  return [...new Set([...actions.keys(), ...changed, ...stats.keys(), ...checks])].map((path) => ({
    path, action: actions.get(path) ?? null, changed: changed.has(path) || stats.has(path),
    added: stats.get(path)?.added ?? null, removed: stats.get(path)?.removed ?? null, binary: stats.get(path)?.binary ?? false, check: checks.has(path),
  }))
}

const AGENT_NAMES: Record<string, string> = { 'claude-json': 'Claude Code', 'codex-jsonl': 'Codex', 'gemini-json': 'Gemini CLI', text: 'agent (text output)' }

function agentOf(result: BoardTaskResult | undefined): string {
  const runs = result?.executor_runs ?? []
  if (!runs.length) return 'none'
  const format = runs.findLast((run) => run.agent)?.agent?.format
  return format ? AGENT_NAMES[format]! : 'executor (no report)'
}

function sumDurations(execution: BoardExecution): number {
  return Object.values(execution.tasks).reduce((sum, t) => sum + t.duration_ms, 0)
}

/** `https://github.com/o/r` from an issue's URL; null for anything else (the URL is data, not trusted to be a link). */
export function repositoryUrl(issueUrl: string | null): string | null {
  const match = issueUrl && /^(https:\/\/[A-Za-z0-9.-]+(?::\d+)?\/[\w.-]+\/[\w.-]+)\/issues\/\d+$/.exec(issueUrl)
  return match ? match[1]! : null
}

/** What keeps the issue from running: open blockers, an epic's unfinished children, a missing approval. */
function waitsOf(files: IssueFiles, status: IssueStatus | 'unknown', run: RunState | undefined, approved: boolean): string[] {
  if (status === 'completed' || status === 'failed') return []
  const waits = openBlockers(files.issue?.blocked_by, run?.issues ?? {}).map((b) => `blocked by #${b.number} (${b.status})`)
  const children = (files.issue?.children ?? []).filter((n) => run?.issues[`ISS-${n}`]?.status !== 'completed')
  if (children.length) waits.push(`epic: ${children.map((n) => `#${n}`).join(', ')} not completed`)
  if (files.plan && !approved && (status === 'planned' || status === 'queued')) waits.push('approval of the current plan')
  if (status === 'paused') waits.push('resume (paused)')
  return waits
}
