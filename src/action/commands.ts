import { changesState, commandList, type CommandName } from '../commands/commands.js'
import type { GitHubClient } from '../github/client.js'
import { reactToComment, replyToIssue, upsertStickyComment } from '../github/comments.js'
import { issueDocument, readIssue, type ApiIssue } from '../github/issues.js'
import type { ExecutionRecord, IssueStatus, QualityGate, Solution } from '../model/index.js'
import { analysePlan, type PlanAnalysis } from '../plan/analyse.js'
import { approvePlan } from '../pipeline/approve.js'
import { signalIssue } from '../pipeline/control.js'
import { issueFilePaths, readIssueFiles } from '../pipeline/issue-files.js'
import { pipelinePlan } from '../pipeline/plan-command.js'
import { syncIssues } from '../pipeline/sync.js'
import { join } from 'node:path'
import { CheckRun, CheckRunPermissionError, publishCheckRun } from '../github/check-runs.js'
import { parseAnnotations, type Annotation } from '../report/annotations.js'
import { verifyIssue } from '../pipeline/verify.js'
import { renderCheckRun } from '../report/check-run.js'
import { renderIssueComment } from '../report/issue-comment.js'
import { renderJobSummary } from '../report/job-summary.js'
import type { RunReport } from '../report/run-report.js'
import type { StateStore } from '../state/store.js'
import type { RunContext } from './context.js'
import type { ActionInputs } from './inputs.js'
import { checkPermission } from './permissions.js'
import { issueOfPullRequest } from './pull-request.js'
import type { Route } from './route.js'

export interface Session {
  inputs: ActionInputs
  ctx: RunContext
  client: GitHubClient
  store: StateStore
  now: string
  /** The checked-out repository tasks run in (`working-directory` inside `GITHUB_WORKSPACE`). */
  repoDir: string
  /** Scratch space for per-task files (`RUNNER_TEMP`). */
  tempDir: string
  /** Aborted when the job is cancelled. */
  signal?: AbortSignal
}

/** What a command did: the action turns it into outputs, a job summary and the step's result. */
export interface Outcome {
  status: IssueStatus | 'refused' | 'unknown-command' | 'unavailable' | 'synced' | 'no-issue'
  issueNumber?: number
  solution?: Solution
  gate?: QualityGate
  commentId?: number
  checkRunId?: number
  execution?: ExecutionRecord
  /** Markdown for the job summary. */
  summary: string
  /** The step fails with this message. */
  failure?: string
  /** The step succeeds, with this warning. */
  warning?: string
}

/**
 * The links footer of the comment names this run and its check run, which differ every time: new links
 * alone are no reason to edit the comment (the old ones still work); a change of content refreshes them.
 */
const LINKS_FOOTER = /<sub>[^\n]*<\/sub>\s*$/

type CommandRoute = Extract<Route, { kind: 'command' | 'unknown-command' }>

const SIGNALLED = { pause: 'Paused', resume: 'Resumed', stop: 'Stopped' } as const

const NOT_YET: ReadonlySet<CommandName> = new Set(['execute', 'retry', 'matrix', 'execute-task', 'report'])

export async function dispatch(session: Session, route: CommandRoute): Promise<Outcome> {
  const { inputs, ctx, client } = session
  const prefix = inputs['command-prefix']
  const where = route.target.number
  const write = !inputs['dry-run']

  if (route.kind === 'unknown-command') {
    const message = `\`${prefix} ${route.name}\` is not a Converge command. Commands:\n\n${commandList(prefix)}`
    if (write && where) {
      await replyToIssue(client, ctx.repo, where, message)
      if (route.commentId) await reactToComment(client, ctx.repo, route.commentId, 'confused')
    }
    return { status: 'unknown-command', summary: message, warning: `Unknown command "${route.name}": answered with the list of commands` }
  }

  const { command } = route
  // Checked whatever the trigger: a workflow may pass `command` on any event, commenters included. Only a
  // scheduled run has no actor: it carries out the repository's own workflow configuration.
  if (changesState(command) && ctx.eventName !== 'schedule') {
    const verdict = await checkPermission(client, ctx.repo, route.actor, inputs['min-permission'])
    if (!verdict.allowed) {
      const message = `Converge did not run \`${prefix} ${command}\`: ${verdict.reason}.`
      if (write && where) await replyToIssue(client, ctx.repo, where, message)
      return { status: 'refused', summary: message, warning: message }
    }
  }
  if (write && route.commentId) await reactToComment(client, ctx.repo, route.commentId, 'eyes')

  if (command === 'sync') return sync(session, route.args[0])
  if (NOT_YET.has(command)) {
    const message = `\`${prefix} ${command}\` is not available in this version of Converge yet. Available now: plan, approve, verify, status, pause, resume, stop, sync.`
    if (write && where) await replyToIssue(client, ctx.repo, where, message)
    return { status: 'unavailable', summary: message, warning: message }
  }

  const issue = await resolveIssue(session, route)
  if (issue.number === undefined) {
    const message = issue.reason
    if (write && where) await replyToIssue(client, ctx.repo, where, message)
    return { status: 'no-issue', summary: message, warning: message }
  }
  const n = issue.number
  const actor = route.actor.login
  switch (command) {
    case 'plan':
      return plan(session, n, issue.payload, route.source === 'comment' && route.target.kind === 'issue' ? route.commentBody : undefined)
    case 'approve': {
      const result = await approvePlan(session.store, n, actor, session.now)
      if (!result.ok) return refusedOnIssue(session, n, where, result.reason)
      return report(session, n, result.alreadyApproved ? `Already approved (${result.planHash.slice(0, 19)}…).` : `Approved by @${actor}.`, !result.alreadyApproved)
    }
    case 'pause':
    case 'resume':
    case 'stop': {
      const result = await signalIssue(session.store, n, command, actor, session.now)
      if (!result.ok) return refusedOnIssue(session, n, where, result.reason)
      return report(session, n, `${SIGNALLED[command]} by @${actor}.`, result.changed)
    }
    case 'status':
      return report(session, n)
    case 'verify':
      return verify(session, n, actor, where)
    default:
      throw new Error(`unhandled command ${command}`)
  }
}

async function plan(session: Session, n: number, payload: ApiIssue | undefined, comment: string | undefined): Promise<Outcome> {
  const { inputs, ctx, client, store, now } = session
  if (inputs.planner === 'command') {
    const message = 'planner: command (an agent CLI as planner) is not available in this version yet; use auto, explicit or builtin.'
    return { status: 'unavailable', issueNumber: n, summary: message, failure: message }
  }
  const api = payload ?? (await readIssue(client, ctx.repo, n))
  const { output, result } = await pipelinePlan(store, issueDocument(api), inputs.planner, now, comment)
  // Said in terms of the state, not of who asked: a rerun on an unchanged issue leaves the comment as it is.
  const headline = result.analysis.errors.length
    ? `Planning failed: the plan has ${result.analysis.errors.length} error${result.analysis.errors.length === 1 ? '' : 's'}.`
    : `Planned with the ${output.planner} planner from the issue as last edited.`
  const published = await publish(session, {
    ...reportBase(session, n, api.title),
    status: result.issueState.status,
    headline,
    ...(result.solution ? { solution: result.solution } : {}),
    analysis: result.analysis,
    notes: output.notes,
  }, result.commit !== null)
  const warning = result.analysis.errors.length
    ? `ISS-${n}: the plan was rejected (${result.analysis.errors.length} errors); see the issue comment`
    : published.warning
  return {
    status: result.issueState.status,
    issueNumber: n,
    ...(result.solution ? { solution: result.solution } : {}),
    gate: result.analysis.gate,
    ...published.ids,
    summary: published.summary,
    ...(warning ? { warning } : {}),
  }
}

/** Re-renders the sticky comment from the state branch (status, approve, control signals). */
async function report(session: Session, n: number, headline?: string, changed = false): Promise<Outcome> {
  const snapshot = await session.store.snapshot(issueFilePaths(n))
  const { issue, plan } = await readIssueFiles(snapshot, n, session.now)
  if (!issue) {
    const message = `ISS-${n} is not known to Converge yet: comment \`${session.inputs['command-prefix']} plan\` to plan it.`
    return { status: 'no-issue', issueNumber: n, summary: message, warning: message }
  }
  const analysis: PlanAnalysis | undefined = plan ? analysePlan(plan) : undefined
  const published = await publish(session, {
    ...reportBase(session, n, issue.title),
    status: issue.status,
    ...(headline ? { headline } : {}),
    ...(plan ? { solution: plan } : {}),
    ...(analysis ? { analysis } : {}),
  }, changed)
  return {
    status: issue.status,
    issueNumber: n,
    ...(plan ? { solution: plan } : {}),
    ...(analysis ? { gate: analysis.gate } : {}),
    ...published.ids,
    summary: published.summary,
    ...(published.warning ? { warning: published.warning } : {}),
  }
}

/**
 * Shows a report where people look: a check run `converge / ISS-<n>` on the run's commit when the state
 * changed (a token without `checks: write` only costs the check run, with a warning), then the sticky
 * comment, which links to it. Dry runs only render.
 */
async function publish(session: Session, report: RunReport, changed: boolean) {
  const { client, ctx, inputs } = session
  const n = report.issue.number
  let checkRun: { id: number; url: string | undefined } | undefined
  let warning: string | undefined
  if (!inputs['dry-run'] && changed && ctx.sha) {
    const output = renderCheckRun(report)
    try {
      checkRun = await publishCheckRun(client, ctx.repo, {
        issueNumber: n, headSha: ctx.sha, title: output.title, summary: output.summary,
        ...(output.conclusion ? { conclusion: output.conclusion } : {}),
        ...(ctx.runUrl ? { detailsUrl: ctx.runUrl } : {}),
      })
    } catch (error) {
      if (!(error instanceof CheckRunPermissionError)) throw error
      warning = error.message
    }
  }
  const linked: RunReport = checkRun?.url ? { ...report, links: { ...report.links, checkRun: checkRun.url } } : report
  const commentId = inputs['dry-run']
    ? undefined
    : (await upsertStickyComment(client, ctx.repo, n, renderIssueComment(linked), LINKS_FOOTER)).id
  return {
    ids: { ...(commentId ? { commentId } : {}), ...(checkRun ? { checkRunId: checkRun.id } : {}) },
    summary: renderJobSummary(linked),
    warning,
  }
}

/**
 * `verify`: every task's verification against the checked-out code, reported live through the check run
 * (bounded progress updates, annotations from failing output) and then the sticky comment.
 */
async function verify(session: Session, n: number, actor: string, where: number): Promise<Outcome> {
  const { inputs, ctx, client, store } = session
  const stored = await readIssueFiles(await store.snapshot(issueFilePaths(n)), n, session.now)
  const { issue } = stored
  let { plan } = stored
  if (inputs['auto-approve'] && plan && !plan.approval && analysePlan(plan).gate === 'pass') {
    const approved = await approvePlan(store, n, actor, session.now)
    if (approved.ok) plan = approved.solution
  }
  const base = reportBase(session, n, issue?.title ?? `#${n}`)
  let check: CheckRun | undefined
  let warning: string | undefined
  if (!inputs['dry-run'] && ctx.sha && plan) {
    try {
      check = await CheckRun.start(client, ctx.repo, {
        issueNumber: n, headSha: ctx.sha, taskCount: plan.tasks.length,
        output: { title: 'Verifying', summary: `Verifying ${plan.tasks.length} tasks of ${plan.id}.` },
        ...(ctx.runUrl ? { detailsUrl: ctx.runUrl } : {}),
      })
    } catch (error) {
      if (!(error instanceof CheckRunPermissionError)) throw error
      warning = error.message
    }
  }
  const result = await verifyIssue(store, n, {
    repoDir: session.repoDir,
    workRoot: join(session.tempDir, 'converge'),
    maxParallel: inputs['max-parallel'],
    timeoutMs: inputs['task-timeout-minutes'] * 60_000,
    secrets: [inputs['github-token']],
    now: () => new Date().toISOString(),
    ...(session.signal ? { signal: session.signal } : {}),
    onProgress: (record, solution) => {
      const done = Object.keys(record.tasks).length
      check?.progress(renderCheckRun({ ...base, status: 'executing', solution, execution: record }), done)
    },
  })
  if (!result.ok) {
    if (check) await check.complete({ conclusion: 'action_required', output: { title: 'Cannot verify', summary: result.reason } })
    return refusedOnIssue(session, n, where, result.reason)
  }
  const report: RunReport = {
    ...base,
    status: result.issue.status,
    headline: `Verified by @${actor} against the checked-out code.`,
    solution: result.plan,
    execution: result.record,
    ...(check?.url ? { links: { ...base.links, checkRun: check.url } } : {}),
  }
  if (check) {
    const output = renderCheckRun(report)
    await check.complete({
      conclusion: output.conclusion ?? 'neutral',
      output: { title: output.title, summary: output.summary },
      annotations: failingAnnotations(result.record, session.repoDir),
    })
  }
  const commentId = inputs['dry-run']
    ? undefined
    : (await upsertStickyComment(client, ctx.repo, n, renderIssueComment(report), LINKS_FOOTER)).id
  return {
    status: result.issue.status,
    issueNumber: n,
    solution: result.plan,
    execution: result.record,
    ...(commentId ? { commentId } : {}),
    ...(check ? { checkRunId: check.id } : {}),
    summary: renderJobSummary(report),
    ...(warning ? { warning } : {}),
  }
}

/** Annotations parsed from the output of every failing command. */
function failingAnnotations(record: ExecutionRecord, repoRoot: string): Annotation[] {
  return Object.values(record.tasks)
    .flatMap((task) => task.convergence_verified)
    .filter((check) => check.kind === 'command' && check.verdict === 'fail' && check.output_tail)
    .flatMap((check) => parseAnnotations(check.output_tail!, { repoRoot }))
}

async function sync(session: Session, label: string | undefined): Promise<Outcome> {
  const result = await syncIssues(session.store, session.client, session.ctx.repo, { ...(label ? { label } : {}), now: session.now })
  const summary = result.unchanged
    ? `Sync: nothing changed since the last sync (${result.total} open issue${result.total === 1 ? '' : 's'} tracked).`
    : `Sync: ${result.total} open issue${result.total === 1 ? '' : 's'} tracked (+${result.added} new, ${result.updated} updated, -${result.removed} closed).`
  return { status: 'synced', summary }
}

async function refusedOnIssue(session: Session, n: number, where: number, reason: string): Promise<Outcome> {
  if (!session.inputs['dry-run']) await replyToIssue(session.client, session.ctx.repo, where, `Converge: ${reason}`)
  return { status: 'refused', issueNumber: n, summary: reason, warning: reason }
}

function reportBase(session: Session, n: number, title: string): Omit<RunReport, 'status'> {
  const { ctx, inputs } = session
  return {
    issue: { number: n, title },
    commandPrefix: inputs['command-prefix'],
    secrets: [inputs['github-token']],
    links: {
      stateBranch: `${ctx.serverUrl}/${ctx.repo.owner}/${ctx.repo.repo}/blob/${inputs['state-branch']}`,
      ...(ctx.runUrl ? { run: ctx.runUrl } : {}),
    },
  }
}

type ResolvedIssue = { number: number; payload?: ApiIssue } | { number: undefined; reason: string }

/** The issue a command acts on: the event's issue, or the one a pull request closes. */
async function resolveIssue(session: Session, route: Extract<Route, { kind: 'command' }>): Promise<ResolvedIssue> {
  const { ctx, client } = session
  const payloadIssue = (ctx.payload.issue ?? undefined) as ApiIssue | undefined
  if (route.target.kind === 'issue') {
    const fromPayload = payloadIssue && payloadIssue.number === route.target.number && !payloadIssue.pull_request
    return { number: route.target.number, ...(fromPayload ? { payload: payloadIssue } : {}) }
  }
  const pull = await issueOfPullRequest(client, ctx.repo, ctx.serverUrl, { number: route.target.number, body: payloadIssue?.body ?? null })
  if (pull.issue === undefined)
    return {
      number: undefined,
      reason: `Pull request #${route.target.number} closes no issue: add "Closes #<issue>" to its description (or use a converge/issue-<n> branch), then run the command again.`,
    }
  return { number: pull.issue }
}
