import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { context } from '@actions/github'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { readRunContext } from '../../src/action/context.js'

/** A fresh `@actions/github` context, read from the environment as it is now (the module's own is read at import). */
const contextNow = () => new (context.constructor as new () => typeof context)()

describe('the run as @actions/github reads it', () => {
  let dir: string | undefined
  afterEach(async () => {
    vi.unstubAllEnvs()
    if (dir) await rm(dir, { recursive: true, force: true })
  })

  it('takes the repository, event, actor and run link from the runner, on GitHub Enterprise Server too', async () => {
    dir = await mkdtemp(join(tmpdir(), 'converge-context-'))
    await writeFile(join(dir, 'event.json'), JSON.stringify({ action: 'opened', issue: { number: 7 } }))
    vi.stubEnv('GITHUB_REPOSITORY', 'octo-org/demo')
    vi.stubEnv('GITHUB_EVENT_NAME', 'issues')
    vi.stubEnv('GITHUB_EVENT_PATH', join(dir, 'event.json'))
    vi.stubEnv('GITHUB_SERVER_URL', 'https://ghe.example.test/')
    vi.stubEnv('GITHUB_RUN_ID', '4242')
    vi.stubEnv('GITHUB_ACTOR', 'alice')
    vi.stubEnv('GITHUB_SHA', 'a'.repeat(40))
    expect(readRunContext(contextNow())).toEqual({
      repo: { owner: 'octo-org', repo: 'demo' },
      eventName: 'issues',
      payload: { action: 'opened', issue: { number: 7 } },
      serverUrl: 'https://ghe.example.test',
      actor: 'alice',
      runUrl: 'https://ghe.example.test/octo-org/demo/actions/runs/4242',
      sha: 'a'.repeat(40),
    })
  })

  it('says it runs as a workflow step when the runner did not name the repository', () => {
    vi.stubEnv('GITHUB_REPOSITORY', '')
    vi.stubEnv('GITHUB_EVENT_PATH', '')
    expect(() => readRunContext(contextNow())).toThrow('GITHUB_REPOSITORY is not set: Converge runs as a step of a GitHub Actions workflow')
  })
})
