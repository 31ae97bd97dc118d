/** The action's commands run in-process against the API emulator: a Session as `runAction` builds it, and a route. */
import { readFileSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parse } from 'yaml'
import { dispatch, type Outcome, type Session } from '../../src/action/commands.js'
import { readInputs } from '../../src/action/inputs.js'
import type { CommandName } from '../../src/model/commands.js'
import { createGitHubClient } from '../../src/github/client.js'
import { GitHubStore } from '../../src/state/github-store.js'
import type { Emulator } from '../support/emulator/index.js'

const ACTION = parse(readFileSync(new URL('../../action.yml', import.meta.url), 'utf8')) as { inputs: Record<string, { default?: string }> }

export interface SessionOptions {
  inputs?: Record<string, string>
  /** the token the run acts with (default: the emulator's github-actions[bot] token) */
  token?: string
  /** the commit check runs go on */
  sha?: string
}

/** A session on `gh`'s repository, with action.yml's defaults under `options.inputs`. */
export async function actionSession(gh: Emulator, options: SessionOptions = {}): Promise<Session & { dispose(): Promise<void> }> {
  const token = options.token ?? gh.token
  const read = readInputs((name) => (name === 'github-token' ? token : options.inputs?.[name] ?? ACTION.inputs[name]?.default ?? ''))
  if (!read.ok) throw new Error(read.errors.join('\n'))
  const client = createGitHubClient({ token, apiUrl: gh.url, graphqlUrl: gh.graphqlUrl, retries: 0, writeIntervalMs: 0 })
  const { owner, name: repo } = gh.state.repository
  const dir = await mkdtemp(join(tmpdir(), 'converge-session-'))
  return {
    inputs: read.inputs,
    ctx: { repo: { owner, repo }, eventName: 'workflow_dispatch', payload: {}, serverUrl: gh.url, ...(options.sha ? { sha: options.sha } : {}) },
    client,
    store: new GitHubStore({ client, owner, repo, branch: read.inputs['state-branch'] }),
    now: new Date().toISOString(),
    repoDir: dir,
    tempDir: dir,
    secrets: [token],
    executorEnv: {},
    plannerEnv: {},
    checkout: { beforeCommands: async () => {}, notes: [] },
    dispose: () => rm(dir, { recursive: true, force: true }),
  }
}

/** Runs `command` on issue `n` (0: the repository) as `actor`, like the `command` input does. */
export function command(session: Session, name: CommandName, n: number, actor = 'alice', args: string[] = []): Promise<Outcome> {
  return dispatch(session, { kind: 'command', command: name, args, source: 'input', target: { kind: 'issue', number: n }, actor: { login: actor, type: 'User' } })
}
