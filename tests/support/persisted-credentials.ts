/**
 * A checkout that kept its credentials, the way actions/checkout leaves one with `persist-credentials: true`
 * (its default), written from reading actions/checkout's src/git-auth-helper.ts:
 * - `v6`: the Authorization header in `$RUNNER_TEMP/git-credentials-<uuid>.config`, included from `.git/config`
 *   by `includeIf.gitdir:` entries for the host's git directory, its worktrees, and the container's paths
 *   (`/github/workspace/.git`, pointing at `/github/runner_temp/…`);
 * - `v4`: the header `http.<server>/.extraheader` in `.git/config` itself.
 * `extras` adds what other steps are known to leave: a `store` credential helper whose file is under
 * RUNNER_TEMP, a `url.<base>.insteadOf` with the token in the base, and a remote URL with it.
 */
import { randomUUID } from 'node:crypto'
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { runGit } from '../../src/git/git.js'

export interface PersistOptions {
  workspace: string
  runnerTemp: string
  serverUrl: string
  token: string
  style: 'v4' | 'v6'
  extras?: boolean
}

/** The value of the header: Basic credentials `x-access-token:<token>`, as actions/checkout writes it. */
export function basicHeader(token: string): string {
  return `AUTHORIZATION: basic ${Buffer.from(`x-access-token:${token}`).toString('base64')}`
}

/** Persists the credentials; returns the files written outside the checkout. */
export async function persistCredentials(options: PersistOptions): Promise<{ credentialsFile?: string; storeFile?: string }> {
  const { workspace, runnerTemp, token } = options
  const origin = new URL(options.serverUrl).origin
  const config = (...args: string[]) => runGit(['config', ...args], { cwd: workspace })
  const written: { credentialsFile?: string; storeFile?: string } = {}
  if (options.style === 'v4') {
    await config('--local', `http.${origin}/.extraheader`, basicHeader(token))
  } else {
    const file = join(runnerTemp, `git-credentials-${randomUUID()}.config`)
    await runGit(['config', '--file', file, `http.${origin}/.extraheader`, basicHeader(token)], { cwd: workspace })
    const gitDir = join(workspace, '.git')
    const containerFile = `/github/runner_temp/${file.slice(runnerTemp.length + 1)}`
    await config('--local', `includeIf.gitdir:${gitDir}.path`, file)
    await config('--local', `includeIf.gitdir:${gitDir}/worktrees/*.path`, file)
    await config('--local', 'includeIf.gitdir:/github/workspace/.git.path', containerFile)
    await config('--local', 'includeIf.gitdir:/github/workspace/.git/worktrees/*.path', containerFile)
    written.credentialsFile = file
  }
  if (options.extras) {
    const host = new URL(options.serverUrl)
    const store = join(runnerTemp, 'git-credentials-store')
    await writeFile(store, `${host.protocol}//x-access-token:${token}@${host.host}\n`, { mode: 0o600 })
    await config('--local', 'credential.helper', `store --file=${store}`)
    await config('--local', `url.${host.protocol}//x-access-token:${token}@${host.host}/.insteadOf`, `${origin}/`)
    const url = (await config('--local', 'remote.origin.url').catch(() => ({ stdout: '' }))).stdout.trim()
    if (url.startsWith('http')) {
      const withToken = new URL(url)
      withToken.username = 'x-access-token'
      withToken.password = token
      await config('--local', 'remote.origin.url', withToken.toString())
    }
    written.storeFile = store
  }
  return written
}
