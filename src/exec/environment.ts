/**
 * The environment a command starts from. Commands never inherit the action's own environment: it holds the
 * action's inputs (`INPUT_*`, the token among them) and the runner's credentials.
 */

const KEPT_NAMES = new Set(['PATH', 'HOME', 'LANG', 'TMPDIR', 'CI'])
const KEPT_PREFIXES = ['RUNNER_', 'GITHUB_']

/** Names that look like credentials are dropped even under a kept prefix (`GITHUB_TOKEN`, a `GITHUB_APP_SECRET`). */
const CREDENTIAL_NAME = /TOKEN|SECRET|PASSWORD|CREDENTIAL|PRIVATE_KEY/i

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
    if (value !== undefined && isKept(name)) env[name] = value
  return env
}

function isKept(name: string): boolean {
  const described = KEPT_NAMES.has(name) || KEPT_PREFIXES.some((prefix) => name.startsWith(prefix))
  return described && !CREDENTIAL_NAME.test(name) && !RUNNER_FILE_COMMANDS.has(name)
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

/** Values of variables named like credentials: masked in everything recorded or posted. */
export function credentialValues(env: Readonly<Record<string, string>>): string[] {
  return Object.entries(env).filter(([name, value]) => CREDENTIAL_NAME.test(name) || /_KEY$/.test(name) ? value.length >= 6 : false).map(([, value]) => value)
}
