import {
  issueId, type Feedback, type IssueState, type IssueStatus, type IssueSummary, type QueueItem, type RunState, type Transition,
} from '../model/index.js'
import { itemStatusOf } from '../queue/build.js'
import { labelPriority } from '../queue/priority.js'

/** Transitions kept in `state.json`; older ones stay in the git history of the state branch. */
const HISTORY_LIMIT = 200
const ERROR_LIMIT = 50
const FEEDBACK_LIMIT = 20

export interface IssueFacts {
  number: number
  title: string
  labels: string[]
  author?: string
  url?: string
}

export function initialRunState(now: string): RunState {
  return {
    version: 1,
    status: 'pending',
    phase: 'init',
    issues: {},
    queue: [],
    context: { total_issues: 0, completed_count: 0, failed_count: 0 },
    errors: [],
    history: [],
    sync: null,
    created_at: now,
    updated_at: now,
  }
}

export function registeredIssue(facts: IssueFacts, now: string): IssueState {
  return {
    id: issueId(facts.number),
    number: facts.number,
    title: facts.title,
    status: 'registered',
    solution_id: null,
    planned_at: null,
    executed_at: null,
    error: null,
    labels: facts.labels,
    author: facts.author ?? null,
    url: facts.url ?? null,
    body_sha: null,
    feedback: [],
    updated_at: now,
  }
}

/** The issue as GitHub shows it now, keeping what Converge recorded about it. */
export function refreshIssue(previous: IssueState | undefined, facts: IssueFacts, now: string): IssueState {
  const base = previous ?? registeredIssue(facts, now)
  return { ...base, title: facts.title, labels: facts.labels, author: facts.author ?? base.author, url: facts.url ?? base.url }
}

export function withFeedback(issue: IssueState, feedback: Feedback): IssueState {
  return { ...issue, feedback: [...issue.feedback, feedback].slice(-FEEDBACK_LIMIT) }
}

/**
 * Records the issue's status in the run state: its summary, the context counts, the status of its queue
 * item and, when the status changed, a transition in the history. Pure: returns a new RunState.
 */
export function recordIssue(
  run: RunState, issue: IssueState, now: string, options: { note?: string; error?: string; phase?: RunState['phase'] } = {},
): RunState {
  return recordIssues(run, [{ issue, ...(options.note ? { note: options.note } : {}), ...(options.error ? { error: options.error } : {}) }], now, options)
}

export interface IssueRecord {
  issue: IssueState
  note?: string
  error?: string
}

/** `recordIssue` for many issues at once (one pass over the run state, whatever their number). */
export function recordIssues(run: RunState, records: readonly IssueRecord[], now: string, options: { phase?: RunState['phase'] } = {}): RunState {
  const issues = { ...run.issues }
  const transitions: Transition[] = []
  const errors: RunState['errors'] = []
  const itemStatus = new Map<string, QueueItem['status']>()
  for (const { issue, note, error } of records) {
    const previous = issues[issue.id]
    const { blocked_by: _blockedBefore, ...kept } = previous ?? {}
    issues[issue.id] = {
      ...kept,
      ...(issue.blocked_by?.length ? { blocked_by: issue.blocked_by } : {}),
      number: issue.number,
      title: issue.title,
      status: issue.status,
      solution_id: issue.solution_id,
      updated_at: now,
      // Sync keeps the priority GitHub's labels show now; an issue it has not seen yet takes its labels' own.
      ...priorityOf(previous, issue),
    }
    if (previous?.status !== issue.status || note)
      transitions.push({ at: now, issue_id: issue.id, from: previous?.status ?? null, to: issue.status, ...(note ? { note } : {}) })
    if (error) errors.push({ at: now, issue_id: issue.id, message: error })
    itemStatus.set(issue.id, itemStatusOf(issue.status))
  }
  const statuses = Object.values(issues).map((i) => i.status)
  const queue = run.queue.some((item) => itemStatus.has(item.issue_id))
    ? run.queue.map((item) => {
      const status = itemStatus.get(item.issue_id)
      return status && status !== item.status ? { ...item, status } : item
    })
    : run.queue
  return {
    ...run,
    status: statuses.every((s) => s === 'completed') ? 'completed' : 'running',
    phase: options.phase ?? run.phase,
    issues,
    queue,
    context: contextOf(issues),
    errors: errors.length ? [...run.errors, ...errors].slice(-ERROR_LIMIT) : run.errors,
    history: transitions.length ? [...run.history, ...transitions].slice(-HISTORY_LIMIT) : run.history,
    updated_at: now,
  }
}

function priorityOf(previous: IssueSummary | undefined, issue: IssueState): Pick<IssueSummary, 'priority'> {
  const priority = previous ? previous.priority : labelPriority(issue.labels)
  return priority ? { priority } : {}
}

/** A planned issue whose solution `sync` put in the queue (issue-run-state: planned → queued). */
export function queuedIssue(issue: IssueState, now: string): IssueState {
  return { ...issue, status: 'queued', updated_at: now }
}

/** The run state's counts, derived from its issues. */
export function contextOf(issues: RunState['issues']): RunState['context'] {
  const statuses = Object.values(issues).map((i) => i.status)
  const count = (status: IssueStatus) => statuses.filter((s) => s === status).length
  return { total_issues: statuses.length, completed_count: count('completed'), failed_count: count('failed') }
}
