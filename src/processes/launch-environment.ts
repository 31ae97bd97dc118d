/**
 * The environment this process was started with stays readable by every process of the same user, for the
 * process's whole life, in `/proc/<pid>/environ` — whatever is later deleted from `process.env`: the kernel
 * shows the strings on the process's initial stack, not the C library's current environment. The runner starts
 * the action with its token there (`INPUT_GITHUB-TOKEN`, and `GITHUB_TOKEN` when a workflow sets it, the runtime
 * and OIDC request tokens too), so any command Converge runs could read it from its parent.
 *
 * Once the action has read its inputs, {@link hideLaunchSecrets} writes over those values in place through
 * `/proc/self/mem` (a process may always write its own memory) and removes the variables from `process.env`:
 * `/proc/<pid>/environ` then shows `*` where the token was. What this does not change: the token is still in
 * this process's heap (the client needs it), readable through `/proc/<pid>/mem` by whoever may ptrace this
 * process — on a runner where ptrace is not restricted (Yama `ptrace_scope` 0), any process of the same user.
 */
import { closeSync, openSync, readFileSync, writeSync } from 'node:fs'
import { isCredentialName, isCredentialValue } from './environment.js'

export interface HiddenSecrets {
  /** The variables whose values were written over and removed from `process.env`. */
  hidden: string[]
  /** Why nothing could be hidden (not Linux, `/proc` not writable); absent when it worked. */
  problem?: string
}

/** Variables of the launch environment that hold the token and the runner's credentials. */
const LAUNCH_SECRETS = /^INPUT_GITHUB-TOKEN$|^(?:GITHUB_TOKEN|GH_TOKEN|GH_ENTERPRISE_TOKEN|GITHUB_ENTERPRISE_TOKEN|ACTIONS_RUNTIME_TOKEN|ACTIONS_ID_TOKEN_REQUEST_TOKEN)$/

/**
 * Writes `*` over the values of every secret of the step in the launch environment — the token, the runner's
 * credentials, every variable named like a credential (`ANTHROPIC_API_KEY`, `GITHUB_PAT`, …), every URL with a
 * password (`DATABASE_URL`) and any variable holding one of `values` — and deletes them from `env`. Call it after
 * everything that reads them has (the inputs, the executor's environment, which Converge keeps in memory).
 */
export function hideLaunchSecrets(env: NodeJS.ProcessEnv, values: readonly string[] = []): HiddenSecrets {
  const secretValues = new Set(values.filter((v) => v.length >= 8))
  const isSecret = (name: string, value: string) =>
    // The inputs are the action's settings (`persisted-credentials: remove` is none): only the token among them.
    LAUNCH_SECRETS.test(name) || (!name.startsWith('INPUT_') && isCredentialName(name)) || isCredentialValue(value) || secretValues.has(value)
  const hidden: string[] = []
  // Picked before the overwrite: process.env reads the same strings, so a value matched by content reads `***` after.
  const picked = Object.entries(env).flatMap(([name, value]) => (value !== undefined && isSecret(name, value) ? [name] : []))
  let problem: string | undefined
  if (process.platform !== 'linux') problem = `${process.platform} has no /proc/<pid>/environ to hide it from`
  else {
    try {
      hidden.push(...overwriteLaunchValues(isSecret))
    } catch (error) {
      problem = `could not write over the launch environment: ${(error as Error).message}`
    }
  }
  for (const name of picked) {
    delete env[name]
    if (!hidden.includes(name) && !problem) hidden.push(name)
  }
  return { hidden, ...(problem ? { problem } : {}) }
}

/** Overwrites, in this process's initial stack, the values `isSecret` picks; returns their names. */
function overwriteLaunchValues(isSecret: (name: string, value: string) => boolean): string[] {
  const stat = readFileSync('/proc/self/stat', 'utf8')
  // Fields after the command name (which may hold spaces and parentheses); env_start is field 50 (proc(5)).
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  const envStart = Number(fields[50 - 3])
  if (!Number.isSafeInteger(envStart) || envStart <= 0) throw new Error('no env_start in /proc/self/stat')
  const environ = readFileSync('/proc/self/environ')
  const names: string[] = []
  const writes: Array<{ offset: number; length: number }> = []
  let start = 0
  while (start < environ.length) {
    let end = environ.indexOf(0, start)
    if (end < 0) end = environ.length
    const entry = environ.subarray(start, end).toString('utf8')
    const equals = entry.indexOf('=')
    if (equals > 0) {
      const name = entry.slice(0, equals)
      const valueOffset = start + Buffer.byteLength(entry.slice(0, equals + 1))
      if (isSecret(name, entry.slice(equals + 1)) && end > valueOffset) {
        names.push(name)
        writes.push({ offset: valueOffset, length: end - valueOffset })
      }
    }
    start = end + 1
  }
  if (!writes.length) return []
  const fd = openSync('/proc/self/mem', 'r+')
  try {
    for (const { offset, length } of writes) writeSync(fd, Buffer.alloc(length, '*'), 0, length, envStart + offset)
  } finally {
    closeSync(fd)
  }
  // Read back: a kernel that took the write silently elsewhere must not be reported as done.
  const after = readFileSync('/proc/self/environ')
  for (const { offset, length } of writes)
    if (!after.subarray(offset, offset + length).equals(Buffer.alloc(length, '*'))) throw new Error('/proc/self/environ still shows the value')
  return names
}
