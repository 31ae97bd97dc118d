import { describe, expect, it } from 'vitest'
import { routeEvent, type RouteSettings } from '../../src/action/route.js'
import { commandList, parseCommandLine } from '../../src/model/commands.js'
import { webhookExample } from '../support/webhooks.js'

const SETTINGS: RouteSettings = { command: '', planLabel: 'converge:plan', executeLabel: 'converge:execute', commandPrefix: '/converge' }

function labeled(name: string) {
  const payload = webhookExample('issues', (p) => p.action === 'labeled' && !p.issue.pull_request)
  payload.label.name = name
  return payload
}

function comment(body: string, options: { onPullRequest?: boolean; action?: string } = {}) {
  const payload = webhookExample('issue_comment', (p) => p.action === (options.action ?? 'created'))
  payload.comment.body = body
  if (options.onPullRequest) payload.issue.pull_request = { url: 'https://api.github.com/repos/o/r/pulls/1' }
  else delete payload.issue.pull_request
  return payload
}

describe('routeEvent', () => {
  it('turns the plan and execute labels into commands on the issue', () => {
    const plan = routeEvent('issues', labeled('converge:plan'), SETTINGS)
    expect(plan).toMatchObject({ kind: 'command', command: 'plan', source: 'label', target: { kind: 'issue', number: 1 } })
    expect(plan).toMatchObject({ actor: { login: 'Codertocat', type: 'User' } })
    expect(routeEvent('issues', labeled('converge:execute'), SETTINGS)).toMatchObject({ kind: 'command', command: 'execute' })
    expect(routeEvent('issues', labeled('bug'), SETTINGS)).toMatchObject({ kind: 'ignore', reason: expect.stringContaining('"bug"') })
  })

  it('reads a command from the first line of a new comment, with its arguments as words', () => {
    const route = routeEvent('issue_comment', comment('/converge retry T2 T3\nbecause the runner died'), SETTINGS)
    expect(route).toMatchObject({ kind: 'command', command: 'retry', args: ['T2', 'T3'], source: 'comment', target: { kind: 'issue' } })
  })

  it('targets the pull request for a comment on a PR', () => {
    expect(routeEvent('issue_comment', comment('/converge plan', { onPullRequest: true }), SETTINGS)).toMatchObject({
      kind: 'command', command: 'plan', target: { kind: 'pull_request', number: 1 },
    })
  })

  it('answers an unknown command, and ignores comments that are not commands or were edited', () => {
    expect(routeEvent('issue_comment', comment('/converge deploy'), SETTINGS)).toMatchObject({ kind: 'unknown-command', name: 'deploy' })
    expect(routeEvent('issue_comment', comment('LGTM, /converge plan later'), SETTINGS)).toMatchObject({ kind: 'ignore' })
    expect(routeEvent('issue_comment', comment('/converge plan', { action: 'edited' }), SETTINGS)).toMatchObject({
      kind: 'ignore', reason: expect.stringContaining('only new comments'),
    })
  })

  it('lets the command input win, for workflow_dispatch and any other event', () => {
    const dispatch = webhookExample('workflow_dispatch')
    expect(routeEvent('workflow_dispatch', dispatch, { ...SETTINGS, command: 'plan', issueNumber: 42 })).toMatchObject({
      kind: 'command', command: 'plan', source: 'input', target: { kind: 'issue', number: 42 },
    })
    expect(routeEvent('workflow_dispatch', dispatch, { ...SETTINGS, command: 'plan' })).toMatchObject({
      kind: 'misconfigured', message: expect.stringMatching(/^input issue-number: command plan needs an issue.*set issue-number/),
    })
    expect(routeEvent('workflow_dispatch', dispatch, { ...SETTINGS, command: 'sync' })).toMatchObject({ kind: 'command', command: 'sync' })
    expect(routeEvent('issues', labeled('bug'), { ...SETTINGS, command: 'status' })).toMatchObject({
      kind: 'command', command: 'status', target: { kind: 'issue', number: 1 },
    })
  })

  it('calls a workflow misconfigured when its inputs cannot work: the input named, with what it allows', () => {
    const dispatch = webhookExample('workflow_dispatch')
    expect(routeEvent('workflow_dispatch', dispatch, { ...SETTINGS, command: 'frob' })).toEqual({
      kind: 'misconfigured',
      message: 'input command: "frob" is not a Converge command; use one of plan, approve, execute, verify, status, retry, pause, resume, stop, sync, matrix, execute-task, report',
    })
    expect(routeEvent('workflow_dispatch', dispatch, { ...SETTINGS, command: 'execute-task', issueNumber: 7 })).toMatchObject({
      kind: 'misconfigured', message: expect.stringContaining('execute-task needs a task id'),
    })
    expect(routeEvent('', {}, SETTINGS)).toMatchObject({ kind: 'misconfigured', message: expect.stringContaining('GITHUB_EVENT_NAME is not set') })
  })

  it('takes the actor from GITHUB_ACTOR when the payload names no sender', () => {
    expect(routeEvent('workflow_dispatch', {}, { ...SETTINGS, command: 'sync', actor: 'octocat' })).toMatchObject({ actor: { login: 'octocat' } })
  })

  it('ignores events it does not handle, with a reason', () => {
    expect(routeEvent('push', {}, SETTINGS)).toEqual({ kind: 'ignore', reason: 'push is not an event Converge handles without the command input' })
  })
})

describe('parseCommandLine', () => {
  it('needs the exact prefix as the first word of the first line', () => {
    expect(parseCommandLine('/converge   PLAN ', '/converge')).toEqual({ kind: 'command', command: 'plan', args: [] })
    expect(parseCommandLine('/convergeplan', '/converge')).toEqual({ kind: 'none' })
    expect(parseCommandLine('text\n/converge plan', '/converge')).toEqual({ kind: 'none' })
    expect(parseCommandLine('/converge', '/converge')).toEqual({ kind: 'unknown', name: '' })
    expect(parseCommandLine('/bot go', '/bot')).toEqual({ kind: 'unknown', name: 'go' })
  })

  it('lists every command for the unknown-command reply', () => {
    const list = commandList('/converge')
    for (const c of ['plan', 'approve', 'execute', 'verify', 'status', 'retry', 'pause', 'resume', 'stop', 'sync', 'matrix', 'execute-task', 'report'])
      expect(list).toContain(`\`/converge ${c}\``)
  })
})
