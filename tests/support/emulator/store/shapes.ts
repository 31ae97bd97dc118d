/** JSON shapes of GitHub's REST answers for the records of the store (the response schemas of GitHub's OpenAPI description). */
import type {
  CheckRunRecord,
  CommentRecord,
  IssueRecord,
  LabelRecord,
  ReactionRecord,
  ReactionSubject,
  UserRecord,
} from './records.js'
import { REACTION_CONTENTS } from './records.js'
import type { RepoStore } from './repo-store.js'
import { nodeId, type Urls } from './urls.js'

export interface ShapeContext {
  store: RepoStore
  urls: Urls
}

const GITHUB_ACTIONS_APP_ID = 15368

export function userShape({ urls }: ShapeContext, user: UserRecord) {
  const api = (suffix = '') => urls.userApi(user.login, suffix)
  return {
    login: user.login,
    id: user.id,
    node_id: nodeId(user.type, user.id),
    avatar_url: `https://avatars.githubusercontent.com/u/${user.id}?v=4`,
    gravatar_id: '',
    url: api(),
    html_url: user.type === 'Bot' ? `${urls.htmlBase}/apps/${user.login.replace(/\[bot\]$/, '')}` : urls.userHtml(user.login),
    followers_url: api('/followers'),
    following_url: api('/following{/other_user}'),
    gists_url: api('/gists{/gist_id}'),
    starred_url: api('/starred{/owner}{/repo}'),
    subscriptions_url: api('/subscriptions'),
    organizations_url: api('/orgs'),
    repos_url: api('/repos'),
    events_url: api('/events{/privacy}'),
    received_events_url: api('/received_events'),
    type: user.type,
    user_view_type: 'public',
    site_admin: false,
  }
}

/** The user named `login` (created on first use, so records never point at nobody). */
function accountShape(context: ShapeContext, login: string) {
  return userShape(context, context.store.ensureUser(login))
}

export function labelShape({ urls }: ShapeContext, label: LabelRecord) {
  return {
    id: label.id,
    node_id: nodeId('Label', label.id),
    url: urls.repoApi(`/labels/${encodeURIComponent(label.name)}`),
    name: label.name,
    color: label.color,
    default: label.isDefault,
    description: label.description,
  }
}

function authorAssociation({ store }: ShapeContext, login: string): string {
  if (login.toLowerCase() === store.repository.owner.toLowerCase()) return 'OWNER'
  return store.permission(login) === 'none' ? 'NONE' : 'COLLABORATOR'
}

function reactionRollup(context: ShapeContext, subject: ReactionSubject, url: string) {
  const reactions = context.store.reactions(subject)
  const counts = Object.fromEntries(
    REACTION_CONTENTS.map((content) => [content, reactions.filter((r) => r.content === content).length]),
  )
  return { url, total_count: reactions.length, ...counts }
}

export function issueShape(context: ShapeContext, issue: IssueRecord) {
  const { store, urls } = context
  const api = (suffix = '') => urls.repoApi(`/issues/${issue.number}${suffix}`)
  const pull = issue.pull
  return {
    url: api(),
    repository_url: urls.repoApi(),
    labels_url: api('/labels{/name}'),
    comments_url: api('/comments'),
    events_url: api('/events'),
    html_url: urls.repoHtml(`/${pull ? 'pull' : 'issues'}/${issue.number}`),
    id: issue.id,
    node_id: nodeId(pull ? 'PullRequest' : 'Issue', issue.id),
    number: issue.number,
    title: issue.title,
    user: accountShape(context, issue.author),
    labels: issue.labels.map((name) => labelShape(context, store.ensureLabel(name))),
    state: issue.state,
    locked: issue.locked,
    assignee: issue.assignees[0] === undefined ? null : accountShape(context, issue.assignees[0]),
    assignees: issue.assignees.map((login) => accountShape(context, login)),
    milestone: null,
    comments: store.comments(issue.number).length,
    created_at: issue.createdAt,
    updated_at: issue.updatedAt,
    closed_at: issue.closedAt,
    closed_by: issue.closedBy === null ? null : accountShape(context, issue.closedBy),
    author_association: authorAssociation(context, issue.author),
    active_lock_reason: null,
    body: issue.body,
    reactions: reactionRollup(context, { type: 'issue', number: issue.number }, api('/reactions')),
    timeline_url: api('/timeline'),
    performed_via_github_app: null,
    state_reason: issue.stateReason,
    ...(pull ? {} : relationSummaries(context, issue)),
    ...(pull
      ? {
          draft: pull.draft,
          pull_request: {
            url: urls.repoApi(`/pulls/${issue.number}`),
            html_url: urls.repoHtml(`/pull/${issue.number}`),
            diff_url: urls.repoHtml(`/pull/${issue.number}.diff`),
            patch_url: urls.repoHtml(`/pull/${issue.number}.patch`),
            merged_at: pull.mergedAt,
          },
        }
      : {}),
  }
}

/** What an issue (not a pull request) says of its sub-issues, its parent and its dependencies. */
function relationSummaries({ store, urls }: ShapeContext, issue: IssueRecord) {
  const parent = store.parentOf(issue.number)
  const { sub_issues_summary, issue_dependencies_summary } = relationCounts(store, issue.number)
  return { sub_issues_summary, parent_issue_url: parent === undefined ? null : urls.repoApi(`/issues/${parent.number}`), issue_dependencies_summary }
}

/** The summaries of an issue's sub-issues and dependencies, as REST issue objects and webhook payloads carry them. */
export function relationCounts(store: RepoStore, number: number) {
  const children = store.subIssues(number)
  const completed = children.filter((child) => child.state === 'closed').length
  const blockedBy = store.blockedBy(number)
  const blocking = store.blocking(number)
  const open = (issues: IssueRecord[]) => issues.filter((i) => i.state === 'open').length
  return {
    sub_issues_summary: {
      total: children.length,
      completed,
      percent_completed: children.length === 0 ? 0 : Math.floor((completed * 100) / children.length),
    },
    issue_dependencies_summary: {
      blocked_by: open(blockedBy),
      blocking: open(blocking),
      total_blocked_by: blockedBy.length,
      total_blocking: blocking.length,
    },
  }
}

export function commentShape(context: ShapeContext, comment: CommentRecord) {
  const { urls } = context
  const url = urls.repoApi(`/issues/comments/${comment.id}`)
  return {
    url,
    html_url: urls.repoHtml(`/issues/${comment.issueNumber}#issuecomment-${comment.id}`),
    issue_url: urls.repoApi(`/issues/${comment.issueNumber}`),
    id: comment.id,
    node_id: nodeId('IssueComment', comment.id),
    user: accountShape(context, comment.author),
    created_at: comment.createdAt,
    updated_at: comment.updatedAt,
    author_association: authorAssociation(context, comment.author),
    body: comment.body,
    reactions: reactionRollup(context, { type: 'comment', id: comment.id }, `${url}/reactions`),
    performed_via_github_app: null,
  }
}

export function reactionShape(context: ShapeContext, reaction: ReactionRecord) {
  return {
    id: reaction.id,
    node_id: nodeId('Reaction', reaction.id),
    user: accountShape(context, reaction.user),
    content: reaction.content,
    created_at: reaction.createdAt,
  }
}

const REPOSITORY_URL_TEMPLATES = {
  archive_url: '/{archive_format}{/ref}',
  assignees_url: '/assignees{/user}',
  blobs_url: '/git/blobs{/sha}',
  branches_url: '/branches{/branch}',
  collaborators_url: '/collaborators{/collaborator}',
  comments_url: '/comments{/number}',
  commits_url: '/commits{/sha}',
  compare_url: '/compare/{base}...{head}',
  contents_url: '/contents/{+path}',
  contributors_url: '/contributors',
  deployments_url: '/deployments',
  downloads_url: '/downloads',
  events_url: '/events',
  forks_url: '/forks',
  git_commits_url: '/git/commits{/sha}',
  git_refs_url: '/git/refs{/sha}',
  git_tags_url: '/git/tags{/sha}',
  hooks_url: '/hooks',
  issue_comment_url: '/issues/comments{/number}',
  issue_events_url: '/issues/events{/number}',
  issues_url: '/issues{/number}',
  keys_url: '/keys{/key_id}',
  labels_url: '/labels{/name}',
  languages_url: '/languages',
  merges_url: '/merges',
  milestones_url: '/milestones{/number}',
  notifications_url: '/notifications{?since,all,participating}',
  pulls_url: '/pulls{/number}',
  releases_url: '/releases{/id}',
  stargazers_url: '/stargazers',
  statuses_url: '/statuses/{sha}',
  subscribers_url: '/subscribers',
  subscription_url: '/subscription',
  tags_url: '/tags',
  teams_url: '/teams',
  trees_url: '/git/trees{/sha}',
}

/** The repository; with `fork`, the fork of it that `fork.owner` owns (as the head repository of a pull request from a fork). */
export function repositoryShape(context: ShapeContext, fork?: { owner: string }) {
  const { store } = context
  const base = store.repository
  const repo = fork === undefined ? base : { ...base, id: store.forkId(fork.owner), owner: fork.owner }
  const urls = fork === undefined ? context.urls : context.urls.forRepository(repo)
  const apiUrls = Object.fromEntries(
    Object.entries(REPOSITORY_URL_TEMPLATES).map(([field, suffix]) => [field, urls.repoApi(suffix)]),
  )
  const openIssues = fork === undefined ? store.issues().filter((issue) => issue.state === 'open').length : 0
  const owner = store.ensureUser(repo.owner)
  // `permissions` are the authenticated actor's; the emulator's actors cannot push to forks
  const canPush = fork === undefined
  return {
    id: repo.id,
    node_id: nodeId('Repository', repo.id),
    name: repo.name,
    full_name: `${repo.owner}/${repo.name}`,
    private: repo.private,
    owner: userShape(context, owner),
    html_url: urls.repoHtml(),
    description: null,
    fork: fork !== undefined,
    url: urls.repoApi(),
    ...apiUrls,
    git_url: `git://github.com/${repo.owner}/${repo.name}.git`,
    ssh_url: `git@github.com:${repo.owner}/${repo.name}.git`,
    clone_url: `${urls.repoHtml()}.git`,
    svn_url: urls.repoHtml(),
    mirror_url: null,
    homepage: null,
    language: null,
    size: 0,
    forks: 0,
    forks_count: 0,
    stargazers_count: 0,
    watchers: 0,
    watchers_count: 0,
    subscribers_count: 0,
    network_count: 0,
    open_issues: openIssues,
    open_issues_count: openIssues,
    default_branch: repo.defaultBranch,
    topics: [],
    has_issues: true,
    has_projects: false,
    has_wiki: false,
    has_pages: false,
    has_downloads: false,
    has_discussions: false,
    archived: false,
    disabled: false,
    visibility: repo.private ? 'private' : 'public',
    license: null,
    allow_forking: true,
    is_template: false,
    web_commit_signoff_required: false,
    pushed_at: repo.createdAt,
    created_at: repo.createdAt,
    updated_at: repo.createdAt,
    permissions: { admin: canPush, maintain: canPush, push: canPush, triage: canPush, pull: true },
    temp_clone_token: '',
    allow_squash_merge: true,
    allow_merge_commit: true,
    allow_rebase_merge: true,
    allow_auto_merge: false,
    allow_update_branch: false,
    delete_branch_on_merge: false,
    use_squash_pr_title_as_default: false,
    ...(owner.type === 'Organization' ? { organization: userShape(context, owner) } : {}),
  }
}

/** A pull request as `GET /pulls/{n}` answers it; `headSha`/`baseSha` are the current heads of its branches. */
export function pullShape(context: ShapeContext, issue: IssueRecord, heads: { headSha: string; baseSha: string }) {
  const { store, urls } = context
  const pull = issue.pull!
  const n = issue.number
  const repo = repositoryShape(context)
  const owner = store.repository.owner
  const branch = (ref: string, sha: string) => ({ label: `${owner}:${ref}`, ref, sha, user: repo.owner, repo })
  const headRepo = pull.headRepoOwner === undefined ? repo : repositoryShape(context, { owner: pull.headRepoOwner })
  const head = { label: `${headRepo.owner.login}:${pull.headRef}`, ref: pull.headRef, sha: heads.headSha, user: headRepo.owner, repo: headRepo }
  const link = (href: string) => ({ href })
  return {
    url: urls.repoApi(`/pulls/${n}`),
    id: issue.pullId ?? issue.id,
    node_id: nodeId('PullRequest', issue.pullId ?? issue.id),
    html_url: urls.repoHtml(`/pull/${n}`),
    diff_url: urls.repoHtml(`/pull/${n}.diff`),
    patch_url: urls.repoHtml(`/pull/${n}.patch`),
    issue_url: urls.repoApi(`/issues/${n}`),
    commits_url: urls.repoApi(`/pulls/${n}/commits`),
    review_comments_url: urls.repoApi(`/pulls/${n}/comments`),
    review_comment_url: urls.repoApi('/pulls/comments{/number}'),
    comments_url: urls.repoApi(`/issues/${n}/comments`),
    statuses_url: urls.repoApi(`/statuses/${heads.headSha}`),
    number: n,
    state: issue.state,
    locked: issue.locked,
    title: issue.title,
    user: accountShape(context, issue.author),
    body: issue.body,
    labels: issue.labels.map((name) => labelShape(context, store.ensureLabel(name))),
    milestone: null,
    active_lock_reason: null,
    created_at: issue.createdAt,
    updated_at: issue.updatedAt,
    closed_at: issue.closedAt,
    merged_at: pull.mergedAt,
    merge_commit_sha: null,
    assignee: issue.assignees[0] === undefined ? null : accountShape(context, issue.assignees[0]),
    assignees: issue.assignees.map((login) => accountShape(context, login)),
    requested_reviewers: [],
    requested_teams: [],
    head,
    base: branch(pull.baseRef, heads.baseSha),
    _links: {
      self: link(urls.repoApi(`/pulls/${n}`)),
      html: link(urls.repoHtml(`/pull/${n}`)),
      issue: link(urls.repoApi(`/issues/${n}`)),
      comments: link(urls.repoApi(`/issues/${n}/comments`)),
      review_comments: link(urls.repoApi(`/pulls/${n}/comments`)),
      review_comment: link(urls.repoApi('/pulls/comments{/number}')),
      commits: link(urls.repoApi(`/pulls/${n}/commits`)),
      statuses: link(urls.repoApi(`/statuses/${heads.headSha}`)),
    },
    author_association: authorAssociation(context, issue.author),
    auto_merge: null,
    draft: pull.draft,
    merged: pull.merged,
    mergeable: null,
    rebaseable: null,
    mergeable_state: 'unknown',
    merged_by: null,
    comments: store.comments(n).length,
    review_comments: 0,
    maintainer_can_modify: pull.maintainerCanModify,
    commits: 1,
    additions: 0,
    deletions: 0,
    changed_files: 0,
  }
}

function githubActionsAppShape(context: ShapeContext) {
  return {
    id: GITHUB_ACTIONS_APP_ID,
    slug: 'github-actions',
    node_id: nodeId('App', GITHUB_ACTIONS_APP_ID),
    client_id: 'Iv1.emulator',
    owner: accountShape(context, 'github'),
    name: 'GitHub Actions',
    description: 'Automate your workflow from idea to production',
    external_url: 'https://help.github.com/en/actions',
    html_url: `${context.urls.htmlBase}/apps/github-actions`,
    created_at: '2018-07-30T09:30:17Z',
    updated_at: '2019-12-10T19:04:12Z',
    permissions: { checks: 'write', contents: 'write', issues: 'write', metadata: 'read', pull_requests: 'write' },
    events: [],
  }
}

export function checkRunShape(context: ShapeContext, run: CheckRunRecord) {
  const { urls } = context
  const url = urls.repoApi(`/check-runs/${run.id}`)
  return {
    id: run.id,
    head_sha: run.headSha,
    node_id: nodeId('CheckRun', run.id),
    external_id: run.externalId,
    url,
    html_url: urls.repoHtml(`/runs/${run.id}`),
    details_url: run.detailsUrl,
    status: run.status,
    conclusion: run.conclusion,
    started_at: run.startedAt,
    completed_at: run.completedAt,
    output: {
      title: run.output.title,
      summary: run.output.summary,
      text: run.output.text,
      annotations_count: run.annotations.length,
      annotations_url: `${url}/annotations`,
    },
    name: run.name,
    check_suite: { id: run.id },
    app: githubActionsAppShape(context),
    pull_requests: [],
  }
}
