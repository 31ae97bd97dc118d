import { tmpdir } from 'node:os'
import { dirname } from 'node:path'
import { describe, expect, it } from 'vitest'
import { cliRunRequest, type RunArgs } from '../../src/cli/run-request.js'

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
})
