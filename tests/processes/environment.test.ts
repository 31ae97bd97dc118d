import { describe, expect, it } from 'vitest'
import { baseEnvironment, credentialValues, isCredentialName } from '../../src/processes/environment.js'

/** What a runner's environment looks like while the action runs (values shortened). */
const RUNNER_ENV = {
  PATH: '/usr/local/bin:/usr/bin:/bin',
  HOME: '/home/runner',
  LANG: 'C.UTF-8',
  TMPDIR: '/tmp',
  CI: 'true',
  SHELL: '/bin/bash',
  NODE_OPTIONS: '--max-old-space-size=4096',
  RUNNER_OS: 'Linux',
  RUNNER_TEMP: '/home/runner/work/_temp',
  GITHUB_REPOSITORY: 'octo-org/demo',
  GITHUB_SHA: 'ffac537e6cbbf934b08745a378932722df287a53',
  GITHUB_WORKSPACE: '/home/runner/work/demo/demo',
  GITHUB_EVENT_PATH: '/home/runner/work/_temp/_github_workflow/event.json',
  GITHUB_TOKEN: 'ghs_16C7e42F292c6912E7710c838347Ae178B4a',
  GITHUB_APP_PRIVATE_KEY: '-----BEGIN RSA PRIVATE KEY-----',
  'INPUT_GITHUB-TOKEN': 'ghs_16C7e42F292c6912E7710c838347Ae178B4a',
  INPUT_EXECUTOR_COMMAND: 'claude -p "$(cat "$CONVERGE_PROMPT_FILE")"',
  ACTIONS_RUNTIME_TOKEN: 'eyJ0eXAiOiJKV1Qi',
  ACTIONS_ID_TOKEN_REQUEST_TOKEN: 'eyJ0eXAiOiJKV1Qi',
  ACTIONS_ID_TOKEN_REQUEST_URL: 'https://pipelines.actions.githubusercontent.com/abc',
  GITHUB_ENV: '/home/runner/work/_temp/_runner_file_commands/set_env_1',
  GITHUB_OUTPUT: '/home/runner/work/_temp/_runner_file_commands/set_output_1',
  GITHUB_PATH: '/home/runner/work/_temp/_runner_file_commands/add_path_1',
  GITHUB_STATE: '/home/runner/work/_temp/_runner_file_commands/save_state_1',
  GITHUB_STEP_SUMMARY: '/home/runner/work/_temp/_runner_file_commands/step_summary_1',
  UNSET: undefined,
}

describe('baseEnvironment', () => {
  it('keeps the basics and the description of the run, and nothing else', () => {
    expect(baseEnvironment(RUNNER_ENV)).toEqual({
      PATH: '/usr/local/bin:/usr/bin:/bin',
      HOME: '/home/runner',
      LANG: 'C.UTF-8',
      TMPDIR: '/tmp',
      CI: 'true',
      RUNNER_OS: 'Linux',
      RUNNER_TEMP: '/home/runner/work/_temp',
      GITHUB_REPOSITORY: 'octo-org/demo',
      GITHUB_SHA: 'ffac537e6cbbf934b08745a378932722df287a53',
      GITHUB_WORKSPACE: '/home/runner/work/demo/demo',
      GITHUB_EVENT_PATH: '/home/runner/work/_temp/_github_workflow/event.json',
    })
  })

  it('never passes on the inputs, the token or the runtime credentials', () => {
    const names = Object.keys(baseEnvironment(RUNNER_ENV))
    for (const name of ['INPUT_GITHUB-TOKEN', 'GITHUB_TOKEN', 'ACTIONS_RUNTIME_TOKEN', 'ACTIONS_ID_TOKEN_REQUEST_TOKEN'])
      expect(names).not.toContain(name)
    expect(names.filter((name) => name.startsWith('INPUT_'))).toEqual([])
  })
})

/** The names the first attack run found unmasked and passed on (PAT, KEY, AUTH, PASS) and a URL with a password. */
const MISSED_BEFORE = {
  GITHUB_PAT: 'ghp_patValue0123456789abcdefghijklmnop',
  GITHUB_APP_KEY: 'app-key-material-0123456789',
  GITHUB_AUTH: 'basic-auth-value-0123',
  RUNNER_PASS: 'runner-pass-0123',
  DATABASE_URL: 'postgres://app:db%40password@db.internal/prod',
}

describe('credentials by a wider list of names, and URLs with a password', () => {
  it('keeps GITHUB_PAT, GITHUB_APP_KEY, GITHUB_AUTH, RUNNER_PASS out of the base environment', () => {
    expect(baseEnvironment({ ...RUNNER_ENV, ...MISSED_BEFORE })).toEqual(baseEnvironment(RUNNER_ENV))
    expect(baseEnvironment({ GITHUB_SERVER_URL: 'https://user:pw-0123456@ghe.example.com' })).toEqual({})
  })

  it('masks each of them, and the password of the URL as it appears decoded', () => {
    const values = credentialValues({ ...MISSED_BEFORE, EDITOR: 'vim', GITHUB_REPOSITORY: 'octo-org/demo' })
    expect(values).toEqual(expect.arrayContaining([...Object.values(MISSED_BEFORE), 'db%40password', 'db@password']))
    expect(values).not.toContain('vim')
    expect(values).not.toContain('octo-org/demo')
  })

  it('tells credential names by their words: PAT and KEY as words, not inside PATH or KEYBOARD', () => {
    for (const name of ['GITHUB_PAT', 'GITHUB_APP_KEY', 'NPM_AUTH', 'DB_PASS', 'MY_API_KEY', 'SLACK_BOT_TOKEN', 'OPENAI_APIKEY']) expect(isCredentialName(name), name).toBe(true)
    for (const name of ['PATH', 'GITHUB_EVENT_PATH', 'KEYBOARD_LAYOUT', 'GIT_AUTHOR_NAME', 'PASSENGER_COUNT']) expect(isCredentialName(name), name).toBe(false)
  })
})
