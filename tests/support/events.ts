/**
 * Event payloads for end-to-end runs: GitHub's recorded webhook examples (`@octokit/webhooks-examples`), retargeted
 * at an emulator's repository. Every field the action could act on (repository, issue, label, comment, sender,
 * node ids) comes from the emulator's records, so what the payload says and what the API answers agree.
 *
 * ```ts
 * gh.seed.issue({ number: 42, title: 'Add login', labels: ['converge:plan'] })
 * gh.seed.permission('alice', 'write')
 * const event = issueLabeledEvent({ gh, issue: 42, label: 'converge:plan', sender: 'alice' })
 * const run = await runAction({ gh, event })
 * ```
 */
import type { Emulator, IssueRecord, ReactionSubject, UserRecord } from './emulator/index.js'
import { nodeId } from './emulator/store/urls.js'
import { webhookExample } from './webhooks.js'

type Payload = Record<string, any>

/** An event as the runner hands it to an action: `GITHUB_EVENT_NAME` and the file at `GITHUB_EVENT_PATH`. */
export interface ActionEvent {
  eventName: string
  payload: Payload
}

/** The web address in html_url fields: the emulator's default (it is not told another one in these tests). */
export const SERVER_URL = 'https://github.com'

/** Where the example workflow lives, as `workflow` of workflow_dispatch and in GITHUB_WORKFLOW_REF. */
export const WORKFLOW_PATH = '.github/workflows/converge.yml'

/** `issues.labeled`: `sender` added `label` to the seeded issue `issue`, which must carry it already. */
export function issueLabeledEvent(options: { gh: Emulator; issue: number; label: string; sender: string }): ActionEvent {
  const { gh } = options
  const issue = seededIssue(gh, options.issue)
  if (issue.pull) throw new Error(`#${issue.number} is a pull request: labelling it is a pull_request event`)
  if (!issue.labels.some((name) => sameName(name, options.label))) {
    throw new Error(`seed issue #${issue.number} with the label ${options.label} (the payload describes the issue after labelling)`)
  }
  const example = retarget(gh, webhookExample('issues', (p) => p.action === 'labeled' && !p.issue.pull_request), options.sender)
  example.issue = issueObject(gh, issue, example.issue)
  example.label = labelObject(gh, options.label)
  return { eventName: 'issues', payload: example }
}

/**
 * `issue_comment`: `sender` comments `body` on the seeded issue or pull request `issue` (GitHub sends comments on
 * pull requests as issue_comment too, with `issue.pull_request` set). The comment is seeded in the emulator, as it
 * exists on GitHub by the time the workflow runs, so the action can react to it.
 */
export function issueCommentEvent(options: {
  gh: Emulator
  issue: number
  body: string
  sender: string
  action?: 'created' | 'edited'
}): ActionEvent {
  const { gh } = options
  const issue = seededIssue(gh, options.issue)
  const comment = gh.seed.comment({ issue: issue.number, body: options.body, user: options.sender })
  const example = retarget(gh, webhookExample('issue_comment', (p) => p.action === (options.action ?? 'created')), options.sender)
  const api = repoApi(gh, `/issues/comments/${comment.id}`)
  example.issue = issueObject(gh, issue, example.issue)
  example.comment = {
    ...example.comment,
    url: api,
    html_url: repoHtml(gh, `/${issue.pull ? 'pull' : 'issues'}/${issue.number}#issuecomment-${comment.id}`),
    issue_url: repoApi(gh, `/issues/${issue.number}`),
    id: comment.id,
    node_id: nodeId('IssueComment', comment.id),
    user: accountObject(gh, comment.author, example.comment.user),
    created_at: comment.createdAt,
    updated_at: comment.updatedAt,
    author_association: authorAssociation(gh, comment.author),
    body: comment.body,
    reactions: reactionRollup(gh, { type: 'comment', id: comment.id }, `${api}/reactions`),
  }
  return { eventName: 'issue_comment', payload: example }
}

/** `workflow_dispatch` of the workflow at WORKFLOW_PATH on the default branch, by `sender`, with the workflow's `inputs`. */
export function workflowDispatchEvent(options: { gh: Emulator; sender: string; inputs?: Record<string, string> }): ActionEvent {
  const { gh } = options
  const example = retarget(gh, webhookExample('workflow_dispatch'), options.sender)
  example.inputs = options.inputs ?? {}
  example.ref = `refs/heads/${gh.state.repository.defaultBranch}`
  example.workflow = WORKFLOW_PATH
  return { eventName: 'workflow_dispatch', payload: example }
}

/**
 * The example with its repository swapped for the emulator's: every API address and every mention of the example
 * repository's full name point at the emulator's, and `repository`, `organization` and `sender` describe its records.
 */
function retarget(gh: Emulator, example: Payload, sender: string): Payload {
  const repository = gh.state.repository
  const fullName = `${repository.owner}/${repository.name}`
  const payload = replaceInStrings(example, [
    ['https://api.github.com', gh.url],
    [example.repository.full_name, fullName],
  ]) as Payload
  const owner = account(gh, repository.owner)
  payload.repository = {
    ...payload.repository,
    id: repository.id,
    node_id: nodeId('Repository', repository.id),
    name: repository.name,
    full_name: fullName,
    owner: accountObject(gh, owner.login, payload.repository.owner),
    private: repository.private,
    visibility: repository.private ? 'private' : 'public',
    default_branch: repository.defaultBranch,
  }
  if (owner.type === 'Organization') payload.organization = organizationObject(gh, owner)
  else delete payload.organization
  payload.sender = accountObject(gh, sender, payload.sender)
  return payload
}

function seededIssue(gh: Emulator, number: number): IssueRecord {
  const issue = gh.state.issue(number)
  if (issue === undefined) throw new Error(`seed issue #${number} first (gh.seed.issue or gh.seed.pullRequest)`)
  return issue
}

/** The emulator's user `login`, created as a plain user on first use (as the emulator does for unknown authors). */
function account(gh: Emulator, login: string): UserRecord {
  return gh.state.user(login) ?? gh.seed.user({ login })
}

/** A user object of the example (`template`) turned into the emulator's user `login`: same fields, its login and id. */
function accountObject(gh: Emulator, login: string, template: Payload): Payload {
  const user = account(gh, login)
  const object = replaceInStrings(template, [
    [`/${template.login}`, `/${encodeURIComponent(user.login)}`],
    [`/u/${template.id}`, `/u/${user.id}`],
  ]) as Payload
  return { ...object, login: user.login, id: user.id, node_id: nodeId(user.type, user.id), type: user.type }
}

function organizationObject(gh: Emulator, org: UserRecord): Payload {
  const api = `${gh.url}/orgs/${org.login}`
  return {
    login: org.login,
    id: org.id,
    node_id: nodeId('Organization', org.id),
    url: api,
    repos_url: `${api}/repos`,
    events_url: `${api}/events`,
    hooks_url: `${api}/hooks`,
    issues_url: `${api}/issues`,
    members_url: `${api}/members{/member}`,
    public_members_url: `${api}/public_members{/member}`,
    avatar_url: `https://avatars.githubusercontent.com/u/${org.id}?v=4`,
    description: null,
  }
}

function issueObject(gh: Emulator, issue: IssueRecord, template: Payload): Payload {
  const api = repoApi(gh, `/issues/${issue.number}`)
  // the example's pull request fields are dropped: a pull request gets its own below
  const { pull_request: _examplePull, draft: _exampleDraft, ...fields } = template
  return {
    ...fields,
    url: api,
    repository_url: repoApi(gh),
    labels_url: `${api}/labels{/name}`,
    comments_url: `${api}/comments`,
    events_url: `${api}/events`,
    html_url: repoHtml(gh, `/${issue.pull ? 'pull' : 'issues'}/${issue.number}`),
    id: issue.id,
    node_id: nodeId(issue.pull ? 'PullRequest' : 'Issue', issue.id),
    number: issue.number,
    title: issue.title,
    user: accountObject(gh, issue.author, template.user),
    labels: issue.labels.map((name) => labelObject(gh, name)),
    state: issue.state,
    state_reason: issue.stateReason,
    locked: issue.locked,
    assignee: issue.assignees[0] === undefined ? null : accountObject(gh, issue.assignees[0], template.user),
    assignees: issue.assignees.map((login) => accountObject(gh, login, template.user)),
    milestone: null,
    comments: gh.state.comments(issue.number).length,
    created_at: issue.createdAt,
    updated_at: issue.updatedAt,
    closed_at: issue.closedAt,
    author_association: authorAssociation(gh, issue.author),
    body: issue.body,
    reactions: reactionRollup(gh, { type: 'issue', number: issue.number }, `${api}/reactions`),
    // github.com puts these in webhook payloads (GitHub's webhooks_issue schema); the examples predate them.
    ...(issue.pull ? {} : gh.state.relationSummaries(issue.number)),
    ...(issue.pull
      ? {
          draft: issue.pull.draft,
          pull_request: {
            url: repoApi(gh, `/pulls/${issue.number}`),
            html_url: repoHtml(gh, `/pull/${issue.number}`),
            diff_url: repoHtml(gh, `/pull/${issue.number}.diff`),
            patch_url: repoHtml(gh, `/pull/${issue.number}.patch`),
            merged_at: issue.pull.mergedAt,
          },
        }
      : {}),
  }
}

function labelObject(gh: Emulator, name: string): Payload {
  const label = gh.state.labels().find((l) => sameName(l.name, name))
  if (label === undefined) throw new Error(`the emulator has no label ${name}`)
  return {
    id: label.id,
    node_id: nodeId('Label', label.id),
    url: repoApi(gh, `/labels/${encodeURIComponent(label.name)}`),
    name: label.name,
    color: label.color,
    default: label.isDefault,
    description: label.description,
  }
}

/**
 * OWNER for the repository owner, NONE for anyone else: the emulator's state does not expose permissions, so a
 * collaborator is not told apart. The action must not authorize by author_association anyway (SPEC §6: it asks
 * the API for the actor's permission).
 */
function authorAssociation(gh: Emulator, login: string): string {
  return sameName(login, gh.state.repository.owner) ? 'OWNER' : 'NONE'
}

function reactionRollup(gh: Emulator, subject: ReactionSubject, url: string): Payload {
  const counts: Record<string, number> = { '+1': 0, '-1': 0, laugh: 0, hooray: 0, confused: 0, heart: 0, rocket: 0, eyes: 0 }
  const reactions = gh.state.reactions(subject)
  for (const reaction of reactions) counts[reaction.content] = (counts[reaction.content] ?? 0) + 1
  return { url, total_count: reactions.length, ...counts }
}

function repoApi(gh: Emulator, suffix = ''): string {
  const { owner, name } = gh.state.repository
  return `${gh.url}/repos/${owner}/${name}${suffix}`
}

function repoHtml(gh: Emulator, suffix = ''): string {
  const { owner, name } = gh.state.repository
  return `${SERVER_URL}/${owner}/${name}${suffix}`
}

/** GitHub compares logins and label names without regard to case. */
function sameName(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase()
}

/** A deep copy of `value` in which every string has each `[from, to]` substring replaced, in order. */
function replaceInStrings(value: unknown, replacements: ReadonlyArray<readonly [string, string]>): unknown {
  if (typeof value === 'string') return replacements.reduce((text, [from, to]) => text.replaceAll(from, to), value)
  if (Array.isArray(value)) return value.map((item) => replaceInStrings(item, replacements))
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, replaceInStrings(item, replacements)]))
  }
  return value
}
