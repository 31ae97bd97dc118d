import { spawn } from 'node:child_process'

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

/** Runs `git --git-dir=<gitDir> <args>` without a shell and returns its standard output. */
export function runGit(gitDir: string, args: readonly string[], options: GitRunOptions = {}): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', [`--git-dir=${gitDir}`, ...args], {
      env: { ...process.env, ...ISOLATED_ENV, ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    })
    const stdout: Buffer[] = []
    const stderr: Buffer[] = []
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk))
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk))
    child.on('error', reject)
    child.on('close', (code) => {
      if (code === 0) resolve(Buffer.concat(stdout))
      else reject(new GitCommandError(args, code, Buffer.concat(stderr).toString('utf8')))
    })
    child.stdin.on('error', () => {
      // git may exit before reading all of its input; the exit code reports the failure.
    })
    child.stdin.end(options.input ?? '')
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
