/**
 * Runs one command on the runner: a line of shell written by the workflow author (`executor-command`, a plan's
 * test command), or a program with its arguments.
 *
 * Security rules for callers:
 * - Untrusted text (issue, comment and plan text) never becomes part of `command`. Pass it in an environment
 *   variable (`CONVERGE_TITLE`, read by the script as `"$CONVERGE_TITLE"`) or in a file whose path is in one; the
 *   shell then treats it as data, whatever quotes, `$(...)` or backticks it holds.
 * - `env` is the complete environment of the command: nothing is inherited. Build it from
 *   {@link baseEnvironment} plus what the command needs; the action's own environment holds its token.
 * - Every secret in `secrets` is masked in the returned output and command text (rules in `redact.ts`).
 *
 * The command runs in its own process group. On timeout or abort the whole group gets SIGTERM, then SIGKILL after
 * `killGraceMs` if anything is still alive; when the command ends by itself, whatever it left running in the group
 * is ended the same way, so background processes neither outlive it nor hold its output open. Standard input is
 * /dev/null: a command that asks a question reads end-of-file instead of waiting until the timeout.
 */
import { spawn } from 'node:child_process'
import { setTimeout as delay } from 'node:timers/promises'
import { maskTokenShapes } from '../model/secrets.js'
import { baseEnvironment } from './environment.js'
import { OutputTail } from './output-tail.js'
import { randomBytes } from 'node:crypto'
import { endTagged, PROCESS_TAG_VARIABLE, terminateGroup } from './process-group.js'
import { redact, secretPatterns } from './redact.js'

interface CommandOptions {
  cwd: string
  /** The complete environment; default: {@link baseEnvironment} of this process's environment. */
  env?: Record<string, string>
  timeoutMs: number
  /** Between SIGTERM and SIGKILL; default 2 s. */
  killGraceMs?: number
  /** Values to mask in the output tail and in the returned command text. */
  secrets?: readonly string[]
  /** Default 16 KiB. */
  maxTailBytes?: number
  signal?: AbortSignal
  /**
   * Called with each non-empty line the command prints, on stdout or stderr, as it comes, secrets masked (the CLI
   * shows the executor's latest line while it runs).
   */
  onLine?: (line: string) => void
}

/**
 * Either a line of shell (run by `/bin/sh -c`) or a program and its arguments (run directly). Arguments are taken
 * as an array, not parsed out of a string: an array cannot be split differently from what the caller meant, and a
 * caller who needs quoting, globs or `$VAR` has a shell line for that.
 */
export type CommandSpec = CommandOptions &
  ({ command: string; argv?: never } | { argv: readonly [string, ...string[]]; command?: never })

export interface CommandResult {
  /** The shell line, or the argv quoted for display; secrets masked. */
  command: string
  /** null when the process was ended by a signal. */
  exitCode: number | null
  signal: string | null
  timedOut: boolean
  aborted: boolean
  durationMs: number
  /** The last `maxTailBytes` of stdout and stderr, interleaved in arrival order, secrets masked. */
  outputTail: string
  /** How many bytes the command wrote to stdout and stderr in all. */
  outputBytes: number
  /** Whether `outputTail` lacks the start of the output. */
  truncated: boolean
}

export const DEFAULT_MAX_TAIL_BYTES = 16 * 1024
export const DEFAULT_KILL_GRACE_MS = 2000
/** setTimeout fires at once for longer delays. */
const MAX_TIMEOUT_MS = 2 ** 31 - 1
/** After the group has ended, how long its output pipes may take to report end-of-file. */
const OUTPUT_DRAIN_MS = 1000

/**
 * Resolves when the command and everything in its process group have ended. Rejects only when the command could
 * not be started (missing `cwd` or program); a failing command is a result with its exit code.
 */
export async function runCommand(spec: CommandSpec): Promise<CommandResult> {
  if (!(spec.timeoutMs > 0 && spec.timeoutMs <= MAX_TIMEOUT_MS))
    throw new RangeError(`timeoutMs must be between 1 and ${MAX_TIMEOUT_MS}, got ${spec.timeoutMs}`)
  const [program, ...args] = spec.argv ?? ['/bin/sh', '-c', spec.command]
  const secrets = spec.secrets ?? []
  const displayed = spec.argv ? formatArgv(spec.argv) : spec.command
  const command = redact(Buffer.from(displayed), secretPatterns(secrets)).toString()
  // A command whose caller has already given up is not started at all.
  if (spec.signal?.aborted)
    return {
      command,
      exitCode: null,
      signal: null,
      timedOut: false,
      aborted: true,
      durationMs: 0,
      outputTail: '',
      outputBytes: 0,
      truncated: false,
    }

  const started = performance.now()
  // Every process the command starts inherits the tag: those that leave its group are found by it and ended.
  const tag = randomBytes(12).toString('hex')
  const child = spawn(program, args, {
    cwd: spec.cwd,
    env: { ...(spec.env ?? baseEnvironment(process.env)), [PROCESS_TAG_VARIABLE]: tag },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const tail = new OutputTail(spec.maxTailBytes ?? DEFAULT_MAX_TAIL_BYTES, secrets)
  const lines = spec.onLine ? [new LineSplitter(spec.onLine, secrets), new LineSplitter(spec.onLine, secrets)] as const : undefined
  child.stdout.on('data', (chunk: Buffer) => {
    tail.push(chunk)
    lines?.[0].push(chunk)
  })
  child.stderr.on('data', (chunk: Buffer) => {
    tail.push(chunk)
    lines?.[1].push(chunk)
  })
  const outputClosed = new Promise<void>((resolve) => child.once('close', () => resolve()))
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve, reject) => {
    child.once('exit', (code, signal) => resolve({ code, signal }))
    child.once('error', reject)
  })

  let timedOut = false
  let aborted = false
  let termination: Promise<void> | undefined
  const graceMs = spec.killGraceMs ?? DEFAULT_KILL_GRACE_MS
  const terminate = () =>
    (termination ??= child.pid === undefined ? Promise.resolve() : terminateGroup(child.pid, graceMs))
  const timer = setTimeout(() => {
    timedOut = true
    void terminate()
  }, spec.timeoutMs)
  const onAbort = () => {
    aborted = true
    void terminate()
  }
  spec.signal?.addEventListener('abort', onAbort, { once: true })

  let exit: Awaited<typeof exited>
  try {
    exit = await exited
  } catch (error) {
    throw new Error(`could not start ${command}: ${(error as Error).message}`, { cause: error })
  } finally {
    // The command has ended (or never started): a timeout or abort from now on changes nothing.
    clearTimeout(timer)
    spec.signal?.removeEventListener('abort', onAbort)
  }
  await terminate()
  await endTagged(tag)
  // A process that left the group (setsid) may still hold the pipes open: do not wait for it for ever.
  await Promise.race([outputClosed, delay(OUTPUT_DRAIN_MS, undefined, { ref: false })])
  child.stdout.destroy()
  child.stderr.destroy()
  lines?.forEach((l) => l.end())

  return {
    command,
    exitCode: exit.code,
    signal: exit.signal,
    timedOut,
    aborted,
    durationMs: Math.round(performance.now() - started),
    outputTail: tail.text(),
    outputBytes: tail.totalBytes,
    truncated: tail.truncated,
  }
}

/** A line longer than this, without its end yet, is not passed on: the status line shows the previous one. */
const MAX_PARTIAL_LINE_BYTES = 64 * 1024

/** One output stream cut into lines for {@link CommandOptions.onLine}, each masked whole. */
class LineSplitter {
  private partial = Buffer.alloc(0)
  private readonly patterns: Buffer[]

  constructor(
    private readonly onLine: (line: string) => void,
    secrets: readonly string[],
  ) {
    this.patterns = secretPatterns(secrets)
  }

  push(chunk: Buffer): void {
    let bytes = Buffer.concat([this.partial, chunk])
    for (let end = bytes.indexOf(10); end !== -1; end = bytes.indexOf(10)) {
      this.emit(bytes.subarray(0, end))
      bytes = bytes.subarray(end + 1)
    }
    this.partial = bytes.length > MAX_PARTIAL_LINE_BYTES ? Buffer.alloc(0) : bytes
  }

  end(): void {
    this.emit(this.partial)
    this.partial = Buffer.alloc(0)
  }

  private emit(bytes: Buffer): void {
    const line = maskTokenShapes(redact(bytes, this.patterns).toString('utf8')).trimEnd()
    if (line.trim()) this.onLine(line)
  }
}

/** argv as a shell would need it typed, for display only: arguments with special characters in single quotes. */
function formatArgv(argv: readonly string[]): string {
  return argv.map((arg) => (/^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replaceAll("'", `'\\''`)}'`)).join(' ')
}
