import type { GitHubClient } from '../github/client.js'
import type { RepoRef } from '../github/issues.js'
import { collaboratorPermission } from '../github/repos.js'
import type { Permission } from './inputs.js'
import type { Actor } from './route.js'

const RANK: Record<Permission | 'none', number> = { none: 0, read: 1, triage: 2, write: 3, maintain: 4, admin: 5 }

export type PermissionVerdict = { allowed: true; permission: Permission } | { allowed: false; reason: string }

/**
 * May `actor` run a command that changes anything? Asks GitHub for the actor's permission on the
 * repository (`role_name` tells triage and maintain apart). Accounts of type Bot are refused: a bot's
 * comment is not a person's decision, and GitHub reports the type, whatever the login looks like.
 */
export async function checkPermission(
  client: GitHubClient, repo: RepoRef, actor: Actor, required: Permission,
): Promise<PermissionVerdict> {
  if (actor.type === 'Bot') return { allowed: false, reason: `${actor.login} is a bot account; Converge takes commands from people` }
  const level = await collaboratorPermission(client, repo, actor.login)
  const permission = level ? levelOf(level.role_name, level.permission) : 'none' // none: not a collaborator
  if (RANK[permission] >= RANK[required]) return { allowed: true, permission: permission as Permission }
  return { allowed: false, reason: `@${actor.login} has ${permission} permission; this command needs ${required}` }
}

/** `role_name` is precise (triage, maintain, custom roles fall back); `permission` has only admin/write/read/none. */
function levelOf(roleName: string | undefined, permission: string): Permission | 'none' {
  if (roleName && roleName in RANK) return roleName as Permission
  return permission in RANK ? (permission as Permission) : 'none'
}
