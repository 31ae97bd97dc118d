/**
 * Epics (issue 16): an issue whose task list references other issues, or that has GitHub sub-issues, is not
 * planned as tasks of its own. Converge records it with its children, each child is planned as its own issue
 * when it is planned, and the epic's status rolls up from theirs. A child of an ordered list waits for the
 * children listed before it (its `blocked_by`).
 */
import { IssueStateSchema, RunStateSchema, type IssueState, type IssueStatus } from '../model/index.js'
import { sha256 } from '../plan/hash.js'
import { readEpic, type RepoName } from '../planners/epic.js'
import type { IssueDocument } from '../planners/types.js'
import { cell, plural, table } from '../report/markdown.js'
import { statePaths, toStateJson } from '../model/state-layout.js'
import { readStateJson } from '../state/state-files.js'
import { transact, type StateSnapshot, type StateStore } from '../state/store.js'
import { initialRunState, recordIssues, refreshIssue, registeredIssue, type IssueRecord } from '../state/transitions.js'
import { simpleEvent } from './events.js'
import { appendEvent } from './issue-files.js'

/** What GitHub says of an issue's relations; the CLI, without GitHub, has none of it. */
export interface GitHubRelations {
  repo?: RepoName
  /** Its sub-issues, in GitHub's order. */
  subIssues?: ReadonlyArray<{ number: number; title: string; state?: string }>
  /** Its parent, when it is a sub-issue. */
  parent?: number
  /** The issues GitHub's dependencies say it is blocked by. */
  blockedBy?: readonly number[]
}

export interface EpicChildRef {
  number: number
  title?: string
  section?: string
  /** Ticked in the epic's list, or closed on GitHub. */
  done: boolean
}

export interface EpicSource {
  children: EpicChildRef[]
  ordered: boolean
  /** Unticked plain items of its lists: the issue then has work of its own and is planned as well. */
  openWork: number
}

/** The epic the issue is, from its text and its GitHub sub-issues (those not in the text after the text's), or undefined. */
export function epicOf(issue: Pick<IssueDocument, 'number' | 'body'>, relations: GitHubRelations = {}): EpicSource | undefined {
  const text = readEpic(issue.body, relations.repo)
  const children: EpicChildRef[] = (text?.children ?? [])
    .filter((c) => c.number !== issue.number)
    .map((c) => ({ number: c.number, done: c.done, ...(c.title ? { title: c.title } : {}), ...(c.section ? { section: c.section } : {}) }))
  for (const sub of relations.subIssues ?? []) {
    const listed = children.find((c) => c.number === sub.number)
    if (listed) listed.done ||= sub.state === 'closed'
    else children.push({ number: sub.number, title: sub.title, done: sub.state === 'closed' })
  }
  if (!children.length) return undefined
  return { children, ordered: text?.ordered ?? false, openWork: text?.work.filter((w) => !w.done).length ?? 0 }
}

/** The children an ordered epic lists before `child`: it waits for them. */
export function orderBlockers(epic: Pick<EpicSource, 'children' | 'ordered'>, child: number): number[] {
  if (!epic.ordered) return []
  const at = epic.children.findIndex((c) => c.number === child)
  return at <= 0 ? [] : epic.children.slice(0, at).map((c) => c.number)
}

/** One child as the epic shows it. */
export interface EpicChildState {
  number: number
  title: string
  section?: string
  /** Its status in the state branch; undefined when Converge has not registered it. */
  status?: IssueStatus
  /** Closed on GitHub, or ticked in the epic's list. */
  done: boolean
  blockedBy: number[]
}

/**
 * The epic's status from its children's: completed when every child is (or is closed on GitHub, or ticked),
 * failed when one failed, executing while one runs, else planned.
 */
export function rollUp(children: readonly EpicChildState[]): { status: IssueStatus; error: string | null } {
  const finished = (c: EpicChildState) => c.done || c.status === 'completed'
  if (children.every(finished)) return { status: 'completed', error: null }
  const failed = children.filter((c) => !finished(c) && c.status === 'failed').map((c) => `#${c.number}`)
  if (failed.length) return { status: 'failed', error: `Child issue${failed.length === 1 ? '' : 's'} ${failed.join(', ')} failed` }
  if (children.some((c) => c.status === 'executing' || c.status === 'paused')) return { status: 'executing', error: null }
  return { status: 'planned', error: null }
}

export interface EpicResult {
  issueState: IssueState
  children: EpicChildState[]
  /** The state commit, or null when nothing changed. */
  commit: string | null
}

/**
 * Records `issue` as an epic of `epic`'s children in one commit: the epic's `issue.json` (its children, its
 * rolled-up status, no solution: an epic is not queued), each child's `issue.json` (registered when new, with
 * its `parent` and the children it waits for in an ordered list), the run state and `events.md`.
 */
export async function recordEpic(
  store: StateStore, issue: IssueDocument, epic: EpicSource, now: string, relations: GitHubRelations = {},
): Promise<EpicResult> {
  const n = issue.number
  const numbers = epic.children.map((c) => c.number)
  const paths = [statePaths.runState, statePaths.issue(n), statePaths.events(n), ...numbers.flatMap((c) => [statePaths.issue(c), statePaths.events(c)])]
  let result: Omit<EpicResult, 'commit'> | undefined
  const { commit } = await transact(store, async (snapshot) => {
    const run = (await readStateJson(snapshot, statePaths.runState, RunStateSchema)) ?? initialRunState(now)
    const previous = await readStateJson(snapshot, statePaths.issue(n), IssueStateSchema)
    const files: Record<string, string> = {}
    const records: IssueRecord[] = []
    const children: EpicChildState[] = []
    for (const child of epic.children) {
      const stored = await readStateJson(snapshot, statePaths.issue(child.number), IssueStateSchema)
      const base = stored ?? registeredIssue({ number: child.number, title: child.title ?? `#${child.number}`, labels: [] }, now)
      const blockedBy = union(base.blocked_by, orderBlockers(epic, child.number))
      const linked: IssueState = { ...base, parent: n, ...(blockedBy.length ? { blocked_by: blockedBy } : {}) }
      if (!stored || toStateJson(linked) !== toStateJson(stored)) {
        files[statePaths.issue(child.number)] = toStateJson({ ...linked, updated_at: now })
        records.push({ issue: linked, ...(stored ? {} : { note: `registered as a child of #${n}` }) })
        const waits = blockedBy.length ? ` It waits for ${blockedBy.map((b) => `#${b}`).join(', ')}.` : ''
        files[statePaths.events(child.number)] = appendEvent(await snapshot.read(statePaths.events(child.number)), child.number,
          simpleEvent(now, child.number, `child of epic #${n}`, `Planned as its own issue when it is planned; the epic rolls up from it.${waits}`))
      }
      children.push({
        number: child.number, title: stored?.title ?? child.title ?? `#${child.number}`,
        ...(child.section ? { section: child.section } : {}),
        ...(stored ? { status: stored.status } : {}), done: child.done, blockedBy,
      })
    }
    const rolled = rollUp(children)
    const facts = { number: n, title: issue.title, labels: issue.labels, author: issue.author, url: issue.url }
    const current = refreshIssue(previous, facts, now)
    const { plan_attempts: _attempts, ...rest } = current
    const state: IssueState = {
      ...rest,
      status: rolled.status,
      error: rolled.error,
      solution_id: null,
      planned_at: previous?.children ? previous.planned_at : now,
      body_sha: sha256(issue.body),
      children: numbers,
      ...(relations.parent ? { parent: relations.parent } : {}),
    }
    result = { issueState: state, children }
    if (previous && toStateJson({ ...state, updated_at: previous.updated_at }) === toStateJson(previous) && !Object.keys(files).length) {
      result.issueState = previous
      return null
    }
    const stamped = { ...state, updated_at: now }
    result.issueState = stamped
    files[statePaths.issue(n)] = toStateJson(stamped)
    files[statePaths.events(n)] = appendEvent(await snapshot.read(statePaths.events(n)), n, simpleEvent(
      now, n, `epic of ${plural(numbers.length, 'child', 'children')}`,
      `**Status**: ${rolled.status.toUpperCase()} | **Children**: ${numbers.map((c) => `#${c}`).join(', ')}${epic.ordered ? ' (in this order)' : ''}`,
    ))
    records.unshift({ issue: stamped, note: previous?.children ? 'epic updated' : `epic of ${numbers.map((c) => `#${c}`).join(', ')}`, ...(rolled.error ? { error: rolled.error } : {}) })
    return {
      message: `ISS-${n}: epic of ${plural(numbers.length, 'child', 'children')} (${rolled.status})`,
      files: { ...files, [statePaths.runState]: toStateJson(recordIssues(run, records, now, { phase: 'planning' })) },
    }
  }, { prefetch: paths })
  return { ...result!, commit }
}

/**
 * Rolls the epic `n` up again from its children's states (`done`: the children closed on GitHub or ticked in
 * its list), in one commit when its status changed. Undefined when `n` is not a recorded epic.
 */
export async function refreshEpic(store: StateStore, n: number, done: ReadonlySet<number>, now: string): Promise<EpicResult | undefined> {
  const snapshot = await store.snapshot([statePaths.issue(n)])
  const epic = await readStateJson(snapshot, statePaths.issue(n), IssueStateSchema)
  if (!epic?.children?.length) return undefined
  let result: Omit<EpicResult, 'commit'> | undefined
  const { commit } = await transact(store, async (current) => {
    const stored = (await readStateJson(current, statePaths.issue(n), IssueStateSchema)) ?? epic
    const children = await childStates(current, stored.children ?? [], done)
    const rolled = rollUp(children)
    result = { issueState: stored, children }
    if (rolled.status === stored.status && rolled.error === stored.error) return null
    const updated: IssueState = { ...stored, status: rolled.status, error: rolled.error, updated_at: now }
    result.issueState = updated
    const run = (await readStateJson(current, statePaths.runState, RunStateSchema)) ?? initialRunState(now)
    return {
      message: `ISS-${n}: epic ${rolled.status} (rolled up from its children)`,
      files: {
        [statePaths.issue(n)]: toStateJson(updated),
        [statePaths.runState]: toStateJson(recordIssues(run, [{ issue: updated, note: 'rolled up from its children', ...(rolled.error ? { error: rolled.error } : {}) }], now)),
        [statePaths.events(n)]: appendEvent(await current.read(statePaths.events(n)), n, simpleEvent(now, n, `epic ${rolled.status}`, rolled.error ?? 'Rolled up from its children.')),
      },
    }
  }, { prefetch: [statePaths.runState, statePaths.issue(n), statePaths.events(n), ...(epic.children ?? []).map(statePaths.issue)] })
  return { ...result!, commit }
}

async function childStates(snapshot: StateSnapshot, numbers: readonly number[], done: ReadonlySet<number>): Promise<EpicChildState[]> {
  return Promise.all(numbers.map(async (number) => {
    const stored = await readStateJson(snapshot, statePaths.issue(number), IssueStateSchema)
    return {
      number, title: stored?.title ?? `#${number}`, ...(stored ? { status: stored.status } : {}),
      done: done.has(number), blockedBy: stored?.blocked_by ?? [],
    }
  }))
}

/** The epic's sticky comment: its children, their states, what each waits for, and the roll-up. */
export function renderEpicComment(epic: { number: number; title: string }, state: Pick<IssueState, 'status' | 'error'>, children: readonly EpicChildState[], commandPrefix: string): string {
  const done = children.filter((c) => c.done || c.status === 'completed').length
  const sections = children.some((c) => c.section)
  const rows = children.map((c) => [
    `#${c.number}`,
    cell(c.title),
    ...(sections ? [cell(c.section ?? '')] : []),
    c.done && c.status !== 'completed' ? 'done' : c.status === undefined || c.status === 'registered' ? 'not planned yet' : c.status,
    c.blockedBy.length ? c.blockedBy.map((b) => `#${b}`).join(', ') : '—',
  ])
  return [
    `### Converge · epic #${epic.number}: ${state.status}`,
    '',
    `**${done}/${children.length}** children done.${state.error ? ` ${state.error}.` : ''} This issue's own text is not planned as tasks: each child is planned and executed as its own issue (\`${commandPrefix} plan\` on it), and this epic is completed when all of them are.`,
    '',
    table(['child', 'title', ...(sections ? ['section'] : []), 'state', 'waits for'], rows),
  ].join('\n')
}

function union(a: readonly number[] | undefined, b: readonly number[]): number[] {
  return [...new Set([...(a ?? []), ...b])]
}
