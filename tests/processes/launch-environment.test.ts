/**
 * hideLaunchSecrets in a process of its own (it writes over that process's launch environment): a child it
 * starts reads its parent's /proc/<pid>/environ, as a command Converge runs could.
 */
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

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

const CHILD = `
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
const { hideLaunchSecrets } = await import(${JSON.stringify(MODULE)})
const before = readFileSync('/proc/self/environ', 'utf8')
const result = hideLaunchSecrets(process.env, [process.env['INPUT_GITHUB-TOKEN']])
// What a command started now sees of its parent.
const seen = execFileSync('cat', ['/proc/' + process.pid + '/environ'], { env: {} }).toString()
console.log(JSON.stringify({ result, before, seen, env: Object.keys(process.env).sort() }))
`

describe.runIf(process.platform === 'linux')('hideLaunchSecrets', () => {
  it("writes over every secret of the step in /proc/<pid>/environ and removes it from process.env; the description of the run is kept", () => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', CHILD], {
      env: {
        PATH: process.env.PATH, 'INPUT_GITHUB-TOKEN': TOKEN, GITHUB_TOKEN: TOKEN, ACTIONS_RUNTIME_TOKEN: 'runtime-token-value',
        INPUT_COPY: TOKEN, GITHUB_REPOSITORY: 'octo-org/demo', ...OTHER_SECRETS,
      },
      encoding: 'utf8',
    })
    expect(run.stderr).toBe('')
    const out = JSON.parse(run.stdout) as { result: { hidden: string[]; problem?: string }; before: string; seen: string; env: string[] }
    expect(out.before).toContain(TOKEN)
    expect(out.result).toEqual({ hidden: ['INPUT_GITHUB-TOKEN', 'GITHUB_TOKEN', 'ACTIONS_RUNTIME_TOKEN', 'INPUT_COPY', ...Object.keys(OTHER_SECRETS)] })
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
  })
})
