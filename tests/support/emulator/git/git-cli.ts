import { fork, type ChildProcess } from 'node:child_process'
import { fileURLToPath } from 'node:url'

/** A git command that exited with a non-zero code. */
export class GitCommandError extends Error {
  constructor(
    readonly args: readonly string[],
    readonly exitCode: number | null,
    readonly stderr: string,
  ) {
    super(`git ${args.join(' ')} exited with ${exitCode}: ${stderr.trim()}`)
  }
}

export interface GitRunOptions {
  input?: string | Buffer
  env?: Record<string, string>
}

/** Environment that keeps the machine's git configuration out of the emulator's repository. */
const ISOLATED_ENV = {
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_TERMINAL_PROMPT: '0',
  LC_ALL: 'C',
}

interface ProxyAnswer {
  id: number
  code?: number | null
  stdout?: Uint8Array
  stderr?: string
  error?: string
}

let proxy: ChildProcess | undefined
let nextId = 0
const pending = new Map<number, (answer: ProxyAnswer) => void>()

/** The process that spawns git for the emulator (see spawn-proxy.mjs); started on first use, one per test worker. */
function spawnProxy(): ChildProcess {
  if (proxy?.connected) return proxy
  const child = fork(fileURLToPath(new URL('./spawn-proxy.mjs', import.meta.url)), [], {
    serialization: 'advanced',
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    execArgv: [],
  })
  child.on('message', (answer: ProxyAnswer) => {
    pending.get(answer.id)?.(answer)
    pending.delete(answer.id)
    holdOpen(child, pending.size > 0)
  })
  child.on('exit', () => {
    for (const settle of pending.values()) settle({ id: -1, error: 'the emulator\'s git process exited' })
    pending.clear()
    if (proxy === child) proxy = undefined
  })
  holdOpen(child, false)
  proxy = child
  return child
}

/**
 * The proxy keeps its process alive while a request is in flight (a script's awaited request would otherwise end
 * it: `npm run bench` exited with 13, its top-level await unsettled), and never once none is (a test worker ends).
 */
function holdOpen(child: ChildProcess, hold: boolean): void {
  if (hold) {
    child.ref()
    child.channel?.ref()
  } else {
    child.unref()
    child.channel?.unref()
  }
}

/** Runs `git --git-dir=<gitDir> <args>` without a shell and returns its standard output. */
export function runGit(gitDir: string, args: readonly string[], options: GitRunOptions = {}): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const id = ++nextId
    pending.set(id, (answer) => {
      if (answer.error !== undefined) reject(new Error(`could not run git ${args.join(' ')}: ${answer.error}`))
      else if (answer.code === 0) resolve(Buffer.from(answer.stdout!.buffer, answer.stdout!.byteOffset, answer.stdout!.byteLength))
      else reject(new GitCommandError(args, answer.code ?? null, answer.stderr ?? ''))
    })
    const child = spawnProxy()
    holdOpen(child, true)
    child.send({ id, args: [`--git-dir=${gitDir}`, ...args], input: options.input ?? '', env: { ...ISOLATED_ENV, ...options.env } })
  })
}

/** Runs git and reports only whether it exited with 0 (for predicates such as `merge-base --is-ancestor`). */
export async function gitSucceeds(gitDir: string, args: readonly string[]): Promise<boolean> {
  try {
    await runGit(gitDir, args)
    return true
  } catch (error) {
    if (error instanceof GitCommandError) return false
    throw error
  }
}
