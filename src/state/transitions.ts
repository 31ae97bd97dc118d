import {
  issueId, type Feedback, type IssueState, type IssueStatus, type RunState,
} from '../model/index.js'

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
 * Records the issue's status in the run state: its summary, the context counts and, when the status
 * changed, a transition in the history. Pure: returns a new RunState.
 */
export function recordIssue(
  run: RunState, issue: IssueState, now: string, options: { note?: string; error?: string; phase?: RunState['phase'] } = {},
): RunState {
  const previous = run.issues[issue.id]
  const issues = {
    ...run.issues,
    [issue.id]: { number: issue.number, title: issue.title, status: issue.status, solution_id: issue.solution_id, updated_at: now },
  }
  const statuses = Object.values(issues).map((i) => i.status)
  const history =
    previous?.status === issue.status && !options.note
      ? run.history
      : [...run.history, { at: now, issue_id: issue.id, from: previous?.status ?? null, to: issue.status, ...(options.note ? { note: options.note } : {}) }].slice(-HISTORY_LIMIT)
  const errors = options.error
    ? [...run.errors, { at: now, issue_id: issue.id, message: options.error }].slice(-ERROR_LIMIT)
    : run.errors
  return {
    ...run,
    status: statuses.every((s) => s === 'completed') ? 'completed' : 'running',
    phase: options.phase ?? run.phase,
    issues,
    context: contextOf(issues),
    errors,
    history,
    updated_at: now,
  }
}

/** The run state's counts, derived from its issues. */
export function contextOf(issues: RunState['issues']): RunState['context'] {
  const statuses = Object.values(issues).map((i) => i.status)
  const count = (status: IssueStatus) => statuses.filter((s) => s === status).length
  return { total_issues: statuses.length, completed_count: count('completed'), failed_count: count('failed') }
}
