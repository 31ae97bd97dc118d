/**
 * hideLaunchSecrets in a process of its own (it writes over that process's launch environment): a child it
 * starts reads its parent's /proc/<pid>/environ, as a command Converge runs could.
 */
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { countChildCoverage, mutantEnvironment, UNDER_MUTATION } from '../support/mutation.js'

const MODULE = fileURLToPath(new URL('../../src/processes/launch-environment.ts', import.meta.url))
const TOKEN = 'ghs_launchEnvironmentToken0123456789'

/** What the attack run read from Converge's /proc/<pid>/environ: the step's other secrets, by names the old filter missed. */
const OTHER_SECRETS = {
  ANTHROPIC_API_KEY: 'sk-ant-api-0123456789abcdef',
  DATABASE_URL: 'postgres://app:db-password-0123@db.internal/prod',
  GITHUB_PAT: 'ghp_patValue0123456789abcdefghijklmnop',
  GITHUB_APP_KEY: 'app-key-material-0123456789',
  NPM_AUTH: 'npm-auth-0123456789',
}

/** Variables no name marks as secret: only the values given to hideLaunchSecrets can; and an input named like a credential. */
const PLAIN = { PLAIN_EIGHT: 'exactly8', PLAIN_SEVEN: 'seven77', 'INPUT_PERSISTED-CREDENTIALS': 'remove' }

const CHILD = `
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
const { hideLaunchSecrets } = await import(${JSON.stringify(MODULE)})
const before = readFileSync('/proc/self/environ', 'utf8')
const result = hideLaunchSecrets(process.env, [process.env['INPUT_GITHUB-TOKEN'], 'exactly8', 'seven77'])
// What a command started now sees of its parent.
const seen = execFileSync('cat', ['/proc/' + process.pid + '/environ'], { env: {} }).toString()
console.log(JSON.stringify({ result, before, seen, env: Object.keys(process.env).sort(), coverage: globalThis.__stryker__?.mutantCoverage }))
`

describe.runIf(process.platform === 'linux')('hideLaunchSecrets', () => {
  it("writes over every secret of the step in /proc/<pid>/environ and removes it from process.env; the description of the run is kept", () => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', CHILD], {
      env: {
        PATH: process.env.PATH, 'INPUT_GITHUB-TOKEN': TOKEN, GITHUB_TOKEN: TOKEN, ACTIONS_RUNTIME_TOKEN: 'runtime-token-value',
        INPUT_COPY: TOKEN, GITHUB_REPOSITORY: 'octo-org/demo', ...OTHER_SECRETS, ...PLAIN, ...mutantEnvironment(),
      },
      encoding: 'utf8',
      // A mutant can make the child loop: under mutation it must not outlive the run.
      ...(UNDER_MUTATION ? { timeout: 120_000 } : {}),
    })
    expect(run.stderr).toBe('')
    const out = JSON.parse(run.stdout) as { result: { hidden: string[]; problem?: string }; before: string; seen: string; env: string[]; coverage?: Parameters<typeof countChildCoverage>[0] }
    countChildCoverage(out.coverage)
    expect(out.before).toContain(TOKEN)
    expect(out.result).toEqual({ hidden: ['INPUT_GITHUB-TOKEN', 'GITHUB_TOKEN', 'ACTIONS_RUNTIME_TOKEN', 'INPUT_COPY', ...Object.keys(OTHER_SECRETS), 'PLAIN_EIGHT'] })
    for (const [name, value] of Object.entries(OTHER_SECRETS)) {
      expect(out.seen, name).not.toContain(value)
      expect(out.env).not.toContain(name)
    }
    expect(out.seen).not.toContain(TOKEN)
    expect(out.seen).not.toContain('runtime-token-value')
    expect(out.seen).toContain(`INPUT_GITHUB-TOKEN=${'*'.repeat(TOKEN.length)}\0`)
    expect(out.seen).toContain('GITHUB_REPOSITORY=octo-org/demo\0')
    expect(out.env).not.toContain('INPUT_GITHUB-TOKEN')
    expect(out.env).not.toContain('GITHUB_TOKEN')
    // A value given is hidden from 8 characters on, whatever its name; an input is the action's setting, not a secret.
    expect(out.seen).toContain('PLAIN_EIGHT=********\0')
    expect(out.seen).toContain('PLAIN_SEVEN=seven77\0')
    expect(out.seen).toContain('INPUT_PERSISTED-CREDENTIALS=remove\0')
    expect(out.env).toEqual(expect.arrayContaining(['GITHUB_REPOSITORY', 'INPUT_PERSISTED-CREDENTIALS', 'PLAIN_SEVEN']))
  })
})
