/**
 * The environment a command starts from. Commands never inherit the action's own environment: it holds the
 * action's inputs (`INPUT_*`, the token among them) and the runner's credentials.
 */

const KEPT_NAMES = new Set(['PATH', 'HOME', 'LANG', 'TMPDIR', 'CI'])
const KEPT_PREFIXES = ['RUNNER_', 'GITHUB_']

/** Parts of a name that say it holds a credential, wherever they are (`GITHUB_TOKEN`, `MYAPITOKEN`, `APP_SECRET`). */
const CREDENTIAL_NAME = /TOKEN|SECRET|PASSWORD|PASSWD|PASSPHRASE|CREDENTIAL|PRIVATE_?KEY|API_?KEY|ACCESS_?KEY/i

/** Words of a name (split at `_`, `-`, `.`) that say so too: `GITHUB_PAT`, `GITHUB_APP_KEY`, `NPM_AUTH`, `DB_PASS`. */
const CREDENTIAL_WORDS = new Set(['PAT', 'KEY', 'KEYS', 'AUTH', 'AUTHORIZATION', 'PASS', 'PW', 'CREDS', 'COOKIE', 'DSN'])

/** A URL that carries a password (`postgres://app:pw@db/prod`, `https://user:token@host`). */
const URL_WITH_PASSWORD = /\b[a-z][a-z0-9+.-]*:\/\/[^\s/?#@:]*:[^\s/?#@]+@/i

/** Does the name say the variable holds a credential? */
export function isCredentialName(name: string): boolean {
  return CREDENTIAL_NAME.test(name) || name.toUpperCase().split(/[_.-]+/).some((word) => CREDENTIAL_WORDS.has(word))
}

/** Does the value show it is one, whatever the name: a URL with a password in it? */
export function isCredentialValue(value: string): boolean {
  return URL_WITH_PASSWORD.test(value)
}

/**
 * The runner's file commands: writing to these files sets the action's outputs and the environment, PATH and
 * summary of later steps, which is not for the commands of a plan to do.
 */
const RUNNER_FILE_COMMANDS = new Set([
  'GITHUB_ENV',
  'GITHUB_OUTPUT',
  'GITHUB_PATH',
  'GITHUB_STATE',
  'GITHUB_STEP_SUMMARY',
])

/**
 * PATH, HOME, LANG, TMPDIR, CI and the `RUNNER_*` / `GITHUB_*` description of the run, from `processEnv`; never
 * `INPUT_*`, `GITHUB_TOKEN`, `ACTIONS_RUNTIME_TOKEN`, `ACTIONS_ID_TOKEN_REQUEST_TOKEN` or anything named like a
 * credential, nor the runner's file commands.
 */
export function baseEnvironment(processEnv: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const env: Record<string, string> = {}
  for (const [name, value] of Object.entries(processEnv))
    if (value !== undefined && isKept(name) && !isCredentialValue(value)) env[name] = value
  return env
}

function isKept(name: string): boolean {
  const described = KEPT_NAMES.has(name) || KEPT_PREFIXES.some((prefix) => name.startsWith(prefix))
  return described && !isCredentialName(name) && !RUNNER_FILE_COMMANDS.has(name)
}

/** Variables the executor never gets either: the action's inputs, GitHub's tokens and the runner's own credentials. */
const NEVER_FOR_EXECUTOR = /^(?:INPUT_|ACTIONS_)|^GITHUB_TOKEN$|^GH_TOKEN$/

/**
 * What the executor gets on top of {@link baseEnvironment}: the rest of the step's environment, where the
 * workflow author puts what an agent CLI needs (`ANTHROPIC_API_KEY`, `OPENAI_API_KEY`, …), but never the
 * inputs, the GitHub token or the runner's credentials. Verification commands, which come from the plan, do
 * not get these.
 */
export function executorEnvironment(processEnv: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const env: Record<string, string> = {}
  for (const [name, value] of Object.entries(processEnv))
    if (value !== undefined && !isKept(name) && !NEVER_FOR_EXECUTOR.test(name) && !RUNNER_FILE_COMMANDS.has(name)) env[name] = value
  return env
}

/** Shorter values are not masked: a 4-letter "true" under `USE_AUTH` would mask the word everywhere. */
const MIN_MASKED_LENGTH = 6

/**
 * Values to mask in everything recorded or posted: those of variables named like credentials, and URLs with a
 * password (the whole URL, and the password alone, as it appears decoded).
 */
export function credentialValues(env: Readonly<Record<string, string | undefined>>): string[] {
  const values: string[] = []
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || value.length < MIN_MASKED_LENGTH) continue
    if (isCredentialName(name)) values.push(value)
    for (const match of value.matchAll(new RegExp(URL_WITH_PASSWORD.source, 'gi'))) {
      if (!values.includes(value)) values.push(value)
      const password = match[0].slice(match[0].indexOf(':', match[0].indexOf('//')) + 1, -1)
      if (password.length >= MIN_MASKED_LENGTH) values.push(password, safeDecode(password))
    }
  }
  return [...new Set(values)]
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text)
  } catch {
    return text
  }
}
