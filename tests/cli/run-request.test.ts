import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { cliRunRequest, removeRunFolder, type RunArgs } from '../../src/cli/run-request.js'

const ARGS: RunArgs = { repo: '.', executor: 'none', maxIterations: 1, maxRetries: 0, onFailure: 'skip', timeoutMinutes: 1 }

describe('the run request of a CLI command', () => {
  // Before, every run on the machine wrote its attempts to one /tmp/converge/ISS-<n>/<task>/…: a run read the agent
  // output another repository's run had left there for the same issue and task.
  it('gives each run a work folder of its own under the temporary folder, with a name no one can guess first', () => {
    const roots = [cliRunRequest(ARGS).workspace.workRoot, cliRunRequest(ARGS).workspace.workRoot]
    expect(roots[0]).not.toBe(roots[1])
    for (const root of roots) {
      expect(dirname(root)).toBe(tmpdir())
      expect(root).toMatch(/\/converge-[0-9a-f]{16}$/)
    }
    expect(cliRunRequest(ARGS, {}, { workRoot: '/given' }).workspace.workRoot).toBe('/given')
  })

  // Each run naming a folder of its own left one behind a run: hundreds gathered under the temporary folder.
  it('removes the folder it named for a run once the run has ended, and never a folder the caller gave', async () => {
    const request = cliRunRequest(ARGS)
    const attempt = join(request.workspace.workRoot, 'ISS-7', 'T1', 'round-1', 'attempt-1')
    await mkdir(attempt, { recursive: true })
    await writeFile(join(attempt, 'agent-output.txt'), 'the agent said')
    await removeRunFolder(request)
    expect(existsSync(request.workspace.workRoot)).toBe(false)

    const given = await mkdtemp(join(tmpdir(), 'converge-given-'))
    try {
      await removeRunFolder(cliRunRequest(ARGS, {}, { workRoot: given }))
      expect(existsSync(given)).toBe(true)
    } finally {
      await rm(given, { recursive: true, force: true })
    }
  })
})
