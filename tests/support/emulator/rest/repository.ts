import { DEFAULT_ACTOR } from '../auth.js'
import { HttpError, json, notFound } from '../http.js'
import { PERMISSION_RANK, type Permission } from '../store/records.js'
import type { UserRecord } from '../store/records.js'
import { repositoryShape, userShape } from '../store/shapes.js'
import { stringParam, type RestContext, type RestHandler } from './context.js'
import { repoCommitShape } from './git-shapes.js'

/** The legacy `permission` field folds the finer roles: maintain reads as write, triage as read. */
const LEGACY_PERMISSION: Record<Permission, string> = {
  admin: 'admin',
  maintain: 'write',
  write: 'write',
  triage: 'read',
  read: 'read',
  none: 'none',
}

const getRepository: RestHandler = (context) => json(200, repositoryShape(context))

const getBranch: RestHandler = async (context) => {
  const { git, urls } = context
  const name = stringParam(context, 'branch')
  const sha = await git.resolveRef(`refs/heads/${name}`)
  if (sha === null) throw notFound('Branch not found')
  const commit = (await git.readCommit(sha))!
  return json(200, {
    name,
    commit: repoCommitShape(urls, commit),
    _links: { self: urls.repoApi(`/branches/${encodeURIComponent(name)}`), html: urls.repoHtml(`/tree/${name}`) },
    protected: false,
    protection: { enabled: false, required_status_checks: { enforcement_level: 'off', contexts: [], checks: [] } },
    protection_url: urls.repoApi(`/branches/${encodeURIComponent(name)}/protection`),
  })
}

const getCollaboratorPermission: RestHandler = (context) => {
  const user = context.store.user(stringParam(context, 'username'))
  if (user === undefined) throw notFound()
  const role = context.store.permission(user.login)
  const atLeast = (level: Permission) => PERMISSION_RANK.indexOf(role) >= PERMISSION_RANK.indexOf(level)
  return json(200, {
    permission: LEGACY_PERMISSION[role],
    role_name: role,
    user: {
      ...userShape(context, user),
      permissions: {
        admin: atLeast('admin'),
        maintain: atLeast('maintain'),
        push: atLeast('write'),
        triage: atLeast('triage'),
        pull: atLeast('read'),
      },
      role_name: role,
    },
  })
}

const getUser: RestHandler = (context) => {
  const user = context.store.user(stringParam(context, 'username'))
  if (user === undefined) throw notFound()
  return json(200, fullUserShape(context, user))
}

/** `GET /user`: a personal access token's user; an installation token (github-actions[bot]) may not ask. */
const getAuthenticated: RestHandler = (context) => {
  if (context.actor.login === DEFAULT_ACTOR) throw new HttpError(403, 'Resource not accessible by integration')
  return json(200, fullUserShape(context, context.actor))
}

function fullUserShape(context: RestContext, user: UserRecord) {
  const createdAt = context.store.repository.createdAt
  return {
    ...userShape(context, user),
    name: null,
    company: null,
    blog: '',
    location: null,
    email: null,
    hireable: null,
    bio: null,
    twitter_username: null,
    public_repos: 0,
    public_gists: 0,
    followers: 0,
    following: 0,
    created_at: createdAt,
    updated_at: createdAt,
  }
}

export const repositoryHandlers: Record<string, RestHandler> = {
  'repos/get': getRepository,
  'repos/get-branch': getBranch,
  'repos/get-collaborator-permission-level': getCollaboratorPermission,
  'users/get-by-username': getUser,
  'users/get-authenticated': getAuthenticated,
  'rate-limit/get': (context) => json(200, context.rateLimit.overview()),
}
