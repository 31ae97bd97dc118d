import { COMMANDS, parseCommandLine, type CommandName } from '../model/commands.js'

export interface Actor {
  login: string
  /** `User`, `Bot` or `Organization`, as GitHub reports the account: bots are told apart by type, not name. */
  type: string
}

export type Target = { kind: 'issue'; number: number } | { kind: 'pull_request'; number: number }

export type Route =
  | { kind: 'command'; command: CommandName; args: string[]; source: 'input' | 'label' | 'comment'; target: Target; actor: Actor; commentId?: number; commentBody?: string }
  | { kind: 'unknown-command'; name: string; target: Target; actor: Actor; commentId?: number }
  | { kind: 'ignore'; reason: string }
  /** The workflow asks for something that cannot work: the step fails, naming the input and what it allows. */
  | { kind: 'misconfigured'; message: string }

export interface RouteSettings {
  command: string
  issueNumber?: number
  planLabel: string
  executeLabel: string
  commandPrefix: string
  /** who runs the workflow (GITHUB_ACTOR), for events whose payload names no sender */
  actor?: string
}

interface Payload {
  action?: string
  issue?: { number: number; pull_request?: unknown }
  pull_request?: { number: number }
  label?: { name: string }
  comment?: { id: number; body?: string | null; user?: { login: string; type: string } }
  sender?: { login: string; type: string }
}

/**
 * Decides what an event asks for (SPEC §5): the `command` input wins; otherwise an `issues.labeled` with
 * the plan or execute label, or an `issue_comment.created` whose first line is a command. Anything else is
 * ignored with a reason (a notice, not a failure); a workflow that sets the inputs so that nothing can work is
 * misconfigured (the step fails). Pure: the event in, the decision out.
 */
export function routeEvent(eventName: string, payload: Payload, settings: RouteSettings): Route {
  const actor: Actor = { login: payload.sender?.login ?? settings.actor ?? 'unknown', type: payload.sender?.type ?? 'User' }
  const eventTarget = targetOf(payload)

  if (settings.command.trim()) {
    const line = parseCommandLine(`${settings.commandPrefix} ${settings.command}`, settings.commandPrefix)
    const target: Target | undefined = settings.issueNumber ? { kind: 'issue', number: settings.issueNumber } : eventTarget
    if (line.kind !== 'command')
      return { kind: 'misconfigured', message: `input command: "${settings.command}" is not a Converge command; use one of ${Object.keys(COMMANDS).join(', ')}` }
    if (!target && needsIssue(line.command))
      return { kind: 'misconfigured', message: `input issue-number: command ${line.command} needs an issue, and a ${eventName || 'run'} event names none: set issue-number` }
    if (line.command === 'execute-task' && line.args.length === 0)
      return { kind: 'misconfigured', message: 'input command: execute-task needs a task id, e.g. "execute-task T2" (in a matrix job: "execute-task ${{ matrix.task }}")' }
    return { kind: 'command', command: line.command, args: line.args, source: 'input', target: target ?? { kind: 'issue', number: 0 }, actor }
  }

  if (eventName === 'issues' && payload.action === 'labeled' && eventTarget) {
    const label = payload.label?.name
    if (label === settings.planLabel) return { kind: 'command', command: 'plan', args: [], source: 'label', target: eventTarget, actor }
    if (label === settings.executeLabel) return { kind: 'command', command: 'execute', args: [], source: 'label', target: eventTarget, actor }
    return { kind: 'ignore', reason: `label "${label}" is not ${settings.planLabel} or ${settings.executeLabel}` }
  }

  if (eventName === 'issue_comment') {
    if (payload.action !== 'created') return { kind: 'ignore', reason: `issue_comment.${payload.action}: only new comments are commands` }
    if (!eventTarget || !payload.comment) return { kind: 'ignore', reason: 'issue_comment without an issue or comment' }
    const body = payload.comment.body ?? ''
    const line = parseCommandLine(body, settings.commandPrefix)
    const commentActor = payload.comment.user ? { login: payload.comment.user.login, type: payload.comment.user.type } : actor
    if (line.kind === 'none') return { kind: 'ignore', reason: `comment does not start with ${settings.commandPrefix}` }
    if (line.kind === 'unknown') return { kind: 'unknown-command', name: line.name, target: eventTarget, actor: commentActor, commentId: payload.comment.id }
    return { kind: 'command', command: line.command, args: line.args, source: 'comment', target: eventTarget, actor: commentActor, commentId: payload.comment.id, commentBody: body }
  }

  if (!eventName) return { kind: 'misconfigured', message: 'GITHUB_EVENT_NAME is not set: Converge runs as a step of a GitHub Actions workflow (or use the converge CLI)' }
  return { kind: 'ignore', reason: `${eventName}${payload.action ? `.${payload.action}` : ''} is not an event Converge handles without the command input` }
}

/** Repository-wide commands work without an issue. */
function needsIssue(command: CommandName): boolean {
  return !['sync', 'matrix', 'status', 'report'].includes(command)
}

function targetOf(payload: Payload): Target | undefined {
  if (payload.issue) return payload.issue.pull_request ? { kind: 'pull_request', number: payload.issue.number } : { kind: 'issue', number: payload.issue.number }
  if (payload.pull_request) return { kind: 'pull_request', number: payload.pull_request.number }
  return undefined
}
