import {
  IssueStateSchema, RunStateSchema, SolutionSchema, solutionId,
  type IssueState, type PlanAttempt, type Solution,
} from '../model/index.js'
import { analysePlan, type PlanAnalysis } from '../plan/analyse.js'
import { missingFileFindings } from '../plan/proof-findings.js'
import { planHash, sha256 } from '../plan/hash.js'
import { blockedByRefs } from '../planners/epic.js'
import type { IssueDocument, PlannerOutput } from '../planners/types.js'
import { statePaths, toStateJson } from '../model/state-layout.js'
import { readStateJson } from '../state/state-files.js'
import { transact, type StateChange, type StateStore } from '../state/store.js'
import { initialRunState, recordIssue, refreshIssue, withFeedback } from '../state/transitions.js'
import { renderExecutionMarkdown } from '../report/execution-md.js'
import { planEvent, simpleEvent } from './events.js'
import { appendEvent } from './issue-files.js'

export interface PlanIssueResult {
  analysis: PlanAnalysis
  /** The plan as stored (with its final id), when it was valid. */
  solution?: Solution
  planHash?: string
  issueState: IssueState
  /** The state commit, or null when nothing changed (same issue body, same plan). */
  commit: string | null
  /** True when the stored plan was kept because the new one is identical (its approval, if any, stands). */
  unchanged: boolean
  /** The stored plan this one replaced (its approval, if it had one, does not carry over). */
  replaced?: { id: string; approvedBy: string | null }
  planPath: string
}

/** What the issue is linked to besides its text, recorded on its state with what its text says. */
export interface IssueRelations {
  /** The epic it is a child of (its GitHub parent). */
  parent?: number
  /** Issues GitHub's dependencies say it is blocked by. */
  blockedBy?: readonly number[]
  /** Its children, when it is an epic that also has work of its own. */
  children?: readonly number[]
}

/**
 * Validates a planner's output and records the result on the state branch in one commit: `issue.json`,
 * `plan.json`, `execution.md`, `state.json` and `events.md` for a valid plan; for an invalid one only the issue's failed
 * state (with the errors as feedback for the next planning). A plan identical to the stored one changes
 * nothing, so reruns make no commit and keep an approval.
 *
 * The attempts of the agent planner (`output.attempts`) are recorded too: one `events.md` entry each, before the
 * plan's, and the list in `issue.json` (`plan_attempts`). A run of the agent is always recorded, even when it ends
 * where the stored state already is: it then adds only these.
 */
export async function planIssue(
  store: StateStore, issue: IssueDocument, output: PlannerOutput, now: string, relations: IssueRelations = {},
  /** Whether the checkout has a path: when given, tasks that modify a file it does not have are findings. */
  pathExists?: (path: string) => boolean,
): Promise<PlanIssueResult> {
  const analysed: PlanAnalysis = output.error
    ? { errors: [output.error], warnings: [], gate: 'fail' }
    : analysePlan(output.raw, issue.number)
  const analysis: PlanAnalysis = analysed.solution && pathExists
    ? { ...analysed, proof: [...missingFileFindings(analysed.solution, pathExists), ...(analysed.proof ?? [])] }
    : analysed
  const n = issue.number
  const paths = [statePaths.runState, statePaths.issue(n), statePaths.plan(n), statePaths.events(n)]
  const bodySha = sha256(issue.body)
  let result: Omit<PlanIssueResult, 'commit'> | undefined

  const { commit } = await transact(
    store,
    async (snapshot): Promise<StateChange | null> => {
      const run = (await readStateJson(snapshot, statePaths.runState, RunStateSchema)) ?? initialRunState(now)
      const previous = await readStateJson(snapshot, statePaths.issue(n), IssueStateSchema)
      const stored = await readStateJson(snapshot, statePaths.plan(n), SolutionSchema)
      const facts = { number: n, title: issue.title, labels: issue.labels, author: issue.author, url: issue.url }
      const current = linked(refreshIssue(previous, facts, now), issue, relations)

      if (!analysis.solution || analysis.errors.length) {
        const message = `Plan rejected: ${analysis.errors.length} error${analysis.errors.length === 1 ? '' : 's'} (${analysis.errors.slice(0, 3).map((e) => `${e.path}: ${e.message}`).join('; ')})`
        const failed = withAttempts(withFeedback(
          { ...current, status: 'failed', error: message, body_sha: bodySha, updated_at: now },
          { at: now, source: 'validation', message },
        ), output.attempts)
        result = { analysis, issueState: failed, unchanged: false, planPath: statePaths.plan(n) }
        if (!output.attempts && previous && previous.status === 'failed' && previous.body_sha === bodySha && previous.error === message) return null
        const tries = output.attempts ? ` after ${attemptCount(output.attempts.length)}` : ''
        return {
          message: `ISS-${n}: plan rejected (${analysis.errors.length} error${analysis.errors.length === 1 ? '' : 's'}${tries})`,
          files: {
            [statePaths.issue(n)]: toStateJson(failed),
            [statePaths.runState]: toStateJson(recordIssue(run, failed, now, { note: 'plan rejected', error: message, phase: 'planning' })),
            [statePaths.events(n)]: appendEvent(await snapshot.read(statePaths.events(n)), n, attemptEvents(n, output.attempts) + planEvent({ at: now, analysis, issue: n })),
          },
        }
      }

      // Same content as the stored plan (ids aside): keep the stored plan, its id and its approval.
      const seq = stored ? Number(/-(\d+)$/.exec(stored.id)![1]) : 0
      const sameAsStored = stored && planHash({ ...analysis.solution, id: stored.id, issue_id: stored.issue_id }) === planHash(stored)
      const solution: Solution = sameAsStored
        ? stored
        : { ...withoutApproval(analysis.solution), id: solutionId(n, seq + 1), issue_id: `ISS-${n}`, created_at: analysis.solution.created_at ?? now }
      const planned: IssueState = withAttempts({
        ...current,
        status: 'planned',
        solution_id: solution.id,
        planned_at: sameAsStored && previous?.planned_at ? previous.planned_at : now,
        error: null,
        body_sha: bodySha,
        updated_at: now,
      }, output.attempts)
      result = {
        analysis, solution, planHash: planHash(solution), issueState: planned, unchanged: Boolean(sameAsStored), planPath: statePaths.plan(n),
        ...(stored && !sameAsStored ? { replaced: { id: stored.id, approvedBy: stored.approval?.approved_by ?? null } } : {}),
      }
      // Nothing new: keep the issue where it is (planned, paused, executing, completed), not back at "planned".
      const unchangedIssue = previous && previous.body_sha === bodySha && previous.title === issue.title && sameRelations(previous, current)
      if (sameAsStored && unchangedIssue && previous.status !== 'failed' && previous.status !== 'registered') {
        result.issueState = previous
        if (!output.attempts) return null
        // The agent ran and came back with the stored plan: record its attempts, and leave the issue where it is.
        const kept = withAttempts({ ...previous, updated_at: now }, output.attempts)
        result.issueState = kept
        return {
          message: `ISS-${n}: plan unchanged ${solution.id} (planner command, ${attemptCount(output.attempts.length)})`,
          files: {
            [statePaths.issue(n)]: toStateJson(kept),
            [statePaths.events(n)]: appendEvent(
              await snapshot.read(statePaths.events(n)), n,
              attemptEvents(n, output.attempts) + simpleEvent(now, n, `plan unchanged ${solution.id}`, 'The planner command wrote the plan that is already stored: it stands, approval included.'),
            ),
          },
        }
      }
      const tasks = solution.tasks.length
      const tries = output.attempts ? `, ${attemptCount(output.attempts.length)}` : ''
      return {
        message: `ISS-${n}: ${sameAsStored ? 'plan unchanged' : 'planned'} ${solution.id} (${tasks} task${tasks === 1 ? '' : 's'}, gate ${analysis.gate}${tries})`,
        files: {
          [statePaths.issue(n)]: toStateJson(planned),
          [statePaths.plan(n)]: toStateJson(solution),
          // The seed's Step 4: the execution overview exists from planning on, all tasks pending.
          [statePaths.executionReport(n)]: renderExecutionMarkdown({
            issue: { number: n, title: issue.title }, status: 'planned', solution, analysis, commandPrefix: '', links: {},
          }),
          [statePaths.runState]: toStateJson(recordIssue(run, planned, now, { note: `planned ${solution.id}`, phase: 'planning' })),
          [statePaths.events(n)]: appendEvent(await snapshot.read(statePaths.events(n)), n, attemptEvents(n, output.attempts) + planEvent({ at: now, analysis, issue: n, solution })),
        },
      }
    },
    { prefetch: paths },
  )
  return { ...result!, commit }
}

/**
 * The issue with its relations: the parent GitHub names (else the one recorded, as an epic's child), and what it
 * is blocked by — GitHub's dependencies, what its text says ("depends on #12"), and what was recorded before (an
 * ordered epic's earlier children).
 */
function linked(issue: IssueState, document: IssueDocument, relations: IssueRelations): IssueState {
  const parent = relations.parent ?? issue.parent
  // Not itself, nor its epic: an epic completes only after its children, so a child waiting for it never would.
  const blockedBy = [...new Set([...(issue.blocked_by ?? []), ...(relations.blockedBy ?? []), ...blockedByRefs(document.body)])]
    .filter((n) => n !== document.number && n !== parent)
  return {
    ...issue,
    ...(relations.children?.length ? { children: [...relations.children] } : {}),
    ...(parent ? { parent } : {}),
    ...(blockedBy.length ? { blocked_by: blockedBy } : {}),
  }
}

function sameRelations(a: IssueState, b: IssueState): boolean {
  const of = (i: IssueState) => JSON.stringify([i.children ?? [], i.parent ?? null, i.blocked_by ?? []])
  return of(a) === of(b)
}

/** The agent planner's attempts on the issue state; another planner's plan leaves none behind. */
function withAttempts(issue: IssueState, attempts: PlanAttempt[] | undefined): IssueState {
  const { plan_attempts: _old, ...rest } = issue
  return attempts ? { ...rest, plan_attempts: attempts } : rest
}

function attemptCount(n: number): string {
  return `${n} attempt${n === 1 ? '' : 's'}`
}

const OUTCOME_TITLES: Record<PlanAttempt['outcome'], string> = {
  accepted: 'ACCEPTED',
  no_plan: 'NO PLAN',
  invalid_json: 'INVALID JSON',
  schema_errors: 'SCHEMA ERRORS',
  dag_errors: 'DEPENDENCY ERRORS',
  gate_fail: 'QUALITY GATE FAILED',
  changed_checkout: 'CHANGED THE CHECKOUT',
}

/** One `events.md` entry per attempt of the planner command: outcome, how the command ended, the errors. */
function attemptEvents(n: number, attempts: PlanAttempt[] | undefined): string {
  if (!attempts) return ''
  return attempts.map((a) => {
    const ended = a.timed_out ? 'timed out' : a.exit_code === null ? 'ended by a signal' : `exit code ${a.exit_code}`
    const facts = [`**Outcome**: ${OUTCOME_TITLES[a.outcome]}`, `**Command**: ${ended} after ${(a.duration_ms / 1000).toFixed(1)} s`]
    if (a.gate) facts.push(`**Quality gate**: ${a.gate} (${a.quality_score ?? 0}/100)`)
    const errors = a.errors.map((e) => {
      const at = e.indexOf(': ')
      return at > 0 && !e.slice(0, at).includes('`') ? `- \`${e.slice(0, at)}\`: ${e.slice(at + 2)}` : `- ${e}`
    })
    return simpleEvent(a.at, n, `planning attempt ${a.attempt} (planner command)`, [facts.join(' | '), ...(errors.length ? ['', ...errors] : [])].join('\n'))
  }).join('')
}

function withoutApproval(solution: Solution): Solution {
  const { approval: _approval, ...rest } = solution
  return rest
}
