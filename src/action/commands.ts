import { join } from 'node:path'
import { changesState, commandList } from '../model/commands.js'
import { reactToComment, replyToIssue } from '../github/comments.js'
import { issueDocument, readIssue, type ApiIssue } from '../github/issues.js'
import { analysePlan, type PlanAnalysis } from '../plan/analyse.js'
import { code } from '../report/markdown.js'
import { approvedHashArgument, approvePlan } from '../pipeline/approve.js'
import { signalIssue } from '../pipeline/control.js'
import { issueFilePaths, readIssueFiles } from '../pipeline/issue-files.js'
import { pipelinePlan } from '../pipeline/plan-command.js'
import { epicOf, refreshEpic, renderEpicComment } from '../pipeline/epic.js'
import { syncIssues } from '../pipeline/sync.js'
import { openBlockersOf, waitForBlockers } from './blocked-gate.js'
import { doneChildren, githubRelations, publishEpicComment, rollUpParent } from './epics.js'
import { approvalEvent, postApprovalReceipt } from './approval-event.js'
import { checkPermission } from './permissions.js'
import { mirrorTasks } from './publish-tasks.js'
import { issueOfPullRequest } from './pull-request.js'
import type { Route } from './route.js'
import { queueStatus } from './queue-status.js'
import { runTasks } from './run-tasks.js'
import { executeTaskCommand, matrixCommand, reportCommand } from './scale-out.js'
import { publish } from './publish-run.js'
import { refusedOnIssue, reportBase, type Outcome, type Session } from './session.js'
import { workBranchName } from '../model/state-layout.js'

export type { Outcome, Session } from './session.js'

type CommandRoute = Extract<Route, { kind: 'command' | 'unknown-command' }>

const SIGNALLED = { pause: 'Paused', resume: 'Resumed', stop: 'Stopped' } as const

export async function dispatch(session: Session, route: CommandRoute): Promise<Outcome> {
  const { inputs, ctx, client } = session
  const prefix = inputs['command-prefix']
  const where = route.target.number
  const write = !inputs['dry-run']

  if (route.kind === 'unknown-command') {
    const shown = code(`${prefix} ${shortName(route.name)}`)
    const message = `${shown} is not a Converge command. Commands:\n\n${commandList(prefix)}`
    // A stranger's comment gets nothing back: no reply for anyone to steer, no comment spam.
    const verdict = await checkPermission(client, ctx.repo, route.actor, inputs['min-permission'])
    if (!verdict.allowed) return { status: 'unknown-command', summary: message, notice: `Unknown command ${shown} from @${route.actor.login}, who may not run commands: not answered` }
    if (write && where) {
      await replyToIssue(client, ctx.repo, where, message)
      if (route.commentId) await reactToComment(client, ctx.repo, route.commentId, 'confused')
    }
    return { status: 'unknown-command', summary: message, warning: `Unknown command "${shortName(route.name)}": answered with the list of commands` }
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
  // Repository-wide when no issue is named: the queue.
  if (where === 0 && (command === 'status' || command === 'matrix')) {
    return command === 'status' ? queueStatus(session) : matrixCommand(session, { actor: route.actor.login, args: route.args, where })
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
      const named = approvedHashArgument(route.args)
      if ('error' in named) return refusedOnIssue(session, n, where, named.error)
      const result = await approvePlan(session.store, n, actor, session.now, approvalEvent(session, route), named.hash)
      if (!result.ok) return refusedOnIssue(session, n, where, result.reason)
      if (result.commit !== null && write) await postApprovalReceipt(session, route, result.solution.id, result.planHash)
      const approved = await report(session, n, result.accepted ? `${result.summary} Note: ${result.accepted}.` : result.summary, result.commit !== null)
      return withWarning(approved, (await mirrorTasks(session, n, result.solution)).warning)
    }
    case 'pause':
    case 'resume':
    case 'stop': {
      const result = await signalIssue(session.store, n, command, actor, session.now)
      if (!result.ok) return refusedOnIssue(session, n, where, result.reason)
      // resume continues the run it interrupted, in this workflow run.
      const interrupted = command === 'resume' && (await interruptedRun(session, n))
      if (interrupted) return runTasks(session, { mode: interrupted, n, actor, where, headline: `Resumed by @${actor}` })
      return report(session, n, `${SIGNALLED[command]} by @${actor}.`, result.changed)
    }
    case 'execute': {
      const stored = await readIssueFiles(await session.store.snapshot(issueFilePaths(n)), n, session.now)
      // Plan if needed (the execute label on a new issue): then execute when the gate allows.
      if (!stored.plan) {
        const planned = await plan(session, n, issue.payload, undefined)
        if (!planned.solution || planned.status === 'failed') return planned
      }
      // Planning just now may have recorded what it is blocked by: then the state is read again.
      const blockers = await openBlockersOf(session, n, stored.plan ? (stored.issue ?? {}) : undefined)
      if (blockers.length) return waitForBlockers(session, n, blockers)
      return afterRun(session, n, await runTasks(session, { mode: 'execute', n, actor, where, headline: `Executed by @${actor}` }))
    }
    case 'retry': {
      const blockers = await openBlockersOf(session, n)
      if (blockers.length) return waitForBlockers(session, n, blockers)
      return afterRun(session, n, await runTasks(session, { mode: 'execute', n, actor, where, retry: route.args.length ? route.args : 'failed', headline: `Retried by @${actor}` }))
    }
    case 'status':
      return report(session, n)
    case 'matrix':
      return matrixCommand(session, { n, actor, args: route.args, where })
    case 'execute-task':
      return executeTaskCommand(session, { n, actor, args: route.args, where })
    case 'report':
      return reportCommand(session, { n, actor, args: route.args, where })
    case 'verify':
      return runTasks(session, {
        mode: 'verify', n, actor, where,
        ...(route.target.kind === 'pull_request' ? { pullRequest: route.target.number } : {}),
        headline: route.target.kind === 'pull_request' ? `Verified by @${actor} against the head of #${route.target.number}` : `Verified by @${actor} against the checked-out code`,
      })
    default:
      throw new Error(`unhandled command ${command}`)
  }
}

async function plan(session: Session, n: number, payload: ApiIssue | undefined, comment: string | undefined): Promise<Outcome> {
  const { inputs, ctx, client, store, now } = session
  const agent = inputs.planner === 'command'
  if (agent && !inputs['planner-command'].trim()) {
    const message = 'planner: command needs planner-command: the command line of an agent CLI that reads $CONVERGE_PLAN_PROMPT_FILE and writes the solution JSON to $CONVERGE_PLAN_FILE.'
    return { status: 'unavailable', issueNumber: n, summary: message, failure: message }
  }
  const api = payload ?? (await readIssue(client, ctx.repo, n))
  const relations = await githubRelations(session, n, api)
  const document = issueDocument(api)
  if (agent && !epicOf(document, relations)) await session.checkout.beforeCommands()
  const { output, result, epic } = await pipelinePlan(store, document, inputs.planner, now, comment, agent
    ? {
        relations,
        repoDir: session.repoDir,
        command: {
          command: inputs['planner-command'],
          repoDir: session.repoDir,
          workDir: join(session.tempDir, 'converge'),
          maxIterations: inputs['max-iterations'],
          timeoutMs: inputs['task-timeout-minutes'] * 60_000,
          plannerEnv: inputs['max-turns'] ? { ...session.plannerEnv, CONVERGE_MAX_TURNS: String(inputs['max-turns']) } : session.plannerEnv,
          secrets: session.secrets,
          ...(session.signal ? { signal: session.signal } : {}),
        },
      }
    : { relations, repoDir: session.repoDir })
  if (epic) {
    // Children closed on GitHub (or ticked in the list) are done: the epic's status rolls up from them.
    const done = await doneChildren(session, api.body ?? '', epic.children.map((c) => c.number))
    const rolled = (await refreshEpic(store, n, done, now)) ?? epic
    // The sections the list puts them under (Frontend, Backend) are the text's, not the state's.
    const children = rolled.children.map((c) => ({ ...epic.children.find((e) => e.number === c.number), ...c }))
    const commentId = await publishEpicComment(session, { number: n, title: api.title }, rolled.issueState, children)
    return {
      status: rolled.issueState.status,
      issueNumber: n,
      ...(commentId ? { commentId } : {}),
      summary: renderEpicComment({ number: n, title: api.title }, rolled.issueState, children, inputs['command-prefix']),
    }
  }
  await rollUpParent(session, n, result.issueState.parent ?? null)
  const errors = result.analysis.errors.length
  const tries = output.attempts ? `${output.attempts.length} attempt${output.attempts.length === 1 ? '' : 's'}` : ''
  // Said in terms of the state, not of who asked: a rerun on an unchanged issue leaves the comment as it is.
  const headline = errors
    ? output.attempts
      ? `Planning failed: the planner command wrote no usable plan in ${tries}; the last one has ${errors} error${errors === 1 ? '' : 's'}.`
      : `Planning failed: the plan has ${errors} error${errors === 1 ? '' : 's'}.`
    : output.attempts
      ? result.analysis.gate === 'fail'
        ? `Planned with the command planner, but no plan passed the quality gate in ${tries}: the last one is kept.`
        : `Planned with the command planner from the issue as last edited (attempt ${output.attempts.length} of ${inputs['max-iterations']}).`
      : `Planned with the ${output.planner} planner from the issue as last edited.`
  const published = await publish(session, {
    ...reportBase(session, n, api.title),
    status: result.issueState.status,
    headline,
    ...(result.solution ? { solution: result.solution } : {}),
    analysis: result.analysis,
    notes: output.notes,
    ...(output.questions ? { questions: output.questions } : {}),
  }, result.commit !== null)
  const warning = errors
    ? `ISS-${n}: the plan was rejected (${errors} errors${tries ? ` after ${tries}` : ''}); see the issue comment`
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

/**
 * After tasks ran: the sub-issues of converged tasks are closed (`publish-tasks`), and the epic the issue is a
 * child of rolls up.
 */
async function afterRun(session: Session, n: number, outcome: Outcome): Promise<Outcome> {
  if (!outcome.solution) return outcome
  const mirrored = await mirrorTasks(session, n, outcome.solution, outcome.execution)
  await rollUpParent(session, n)
  return withWarning(outcome, mirrored.warning)
}

function withWarning(outcome: Outcome, warning: string | undefined): Outcome {
  if (!warning) return outcome
  return { ...outcome, warning: outcome.warning ? `${outcome.warning}\n${warning}` : warning }
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
    ...(issue.error ? { error: issue.error } : {}),
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

async function sync(session: Session, label: string | undefined): Promise<Outcome> {
  const result = await syncIssues(session.store, session.client, session.ctx.repo, { ...(label ? { label } : {}), now: session.now })
  const summary = result.unchanged
    ? `Sync: nothing changed since the last sync (${result.total} open issue${result.total === 1 ? '' : 's'} tracked).`
    : `Sync: ${result.total} open issue${result.total === 1 ? '' : 's'} tracked (+${result.added} new, ${result.updated} updated, -${result.removed} closed).`
  const { queue } = result
  const queued = `Queue: ${queue.items} solution${queue.items === 1 ? '' : 's'} in ${queue.groups} group${queue.groups === 1 ? '' : 's'}` +
    `${queue.queued ? ` (${queue.queued} newly queued)` : ''}${queue.skipped ? `; ${queue.skipped} left out, see the run state's errors` : ''}. \`status\` without an issue shows the order and why.`
  return { status: 'synced', summary: `${summary}\n\n${queued}` }
}

/** The mode of a run that a pause or stop interrupted, if any. */
async function interruptedRun(session: Session, n: number): Promise<'execute' | 'verify' | undefined> {
  const { execution } = await readIssueFiles(await session.store.snapshot(issueFilePaths(n)), n, session.now)
  return execution && (execution.status === 'paused' || execution.status === 'stopped') ? (execution.mode ?? 'execute') : undefined
}

/** Longer command names are cut: a reply quotes at most this much of what a comment wrote. */
const SHOWN_NAME_LENGTH = 40

function shortName(name: string): string {
  return name.length > SHOWN_NAME_LENGTH ? `${name.slice(0, SHOWN_NAME_LENGTH)}…` : name
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
      reason: `Pull request #${route.target.number} closes no issue: add "Closes #<issue>" to its description (or use a ${workBranchName('<n>')} branch), then run the command again.`,
    }
  return { number: pull.issue }
}
