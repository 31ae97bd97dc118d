/** The one place that runs the `git` binary: never through a shell, arguments always as an array. */
import { spawn } from 'node:child_process'

export interface RunGitOptions {
  /** The repository (or a directory inside it) git runs in. */
  cwd: string
  input?: string | Buffer
  /** Added to the environment, after the defaults (so it can override them). */
  env?: Record<string, string>
}

/** A git command that could not start or exited with a non-zero code. */
export class GitError extends Error {
  constructor(
    readonly command: string,
    /** null when git could not start or was killed by a signal. */
    readonly exitCode: number | null,
    readonly stderr: string,
  ) {
    super(`${command} failed${exitCode === null ? '' : ` with exit code ${exitCode}`}: ${stderr || '(no output)'}`)
    this.name = 'GitError'
  }
}

export interface GitIdentity {
  name: string
  email: string
}

/** Who state commits are by, unless a caller says otherwise. */
export const CONVERGE_IDENTITY: GitIdentity = { name: 'Converge', email: 'converge@users.noreply.github.com' }

/** Environment that makes git author and commit as `identity`, whatever the machine's configuration says. */
export function identityEnv(identity: GitIdentity): Record<string, string> {
  return {
    GIT_AUTHOR_NAME: identity.name,
    GIT_AUTHOR_EMAIL: identity.email,
    GIT_COMMITTER_NAME: identity.name,
    GIT_COMMITTER_EMAIL: identity.email,
  }
}

/**
 * Variables that point git at another repository or index. Inherited ones are dropped (git sets them while
 * running hooks, for example) so `cwd` alone decides which repository a command works on.
 */
const REPOSITORY_VARIABLES = [
  'GIT_DIR',
  'GIT_WORK_TREE',
  'GIT_INDEX_FILE',
  'GIT_OBJECT_DIRECTORY',
  'GIT_ALTERNATE_OBJECT_DIRECTORIES',
  'GIT_COMMON_DIR',
  'GIT_NAMESPACE',
  'GIT_PREFIX',
]

function gitEnv(extra: Record<string, string> | undefined): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, GIT_TERMINAL_PROMPT: '0' }
  for (const name of REPOSITORY_VARIABLES) delete env[name]
  return { ...env, ...extra }
}

/** Runs `git <args>` and resolves with its standard output as bytes. */
export function runGitBytes(args: readonly string[], options: RunGitOptions): Promise<{ stdout: Buffer }> {
  const command = ['git', ...args].join(' ')
  return new Promise((resolve, reject) => {
    const child = spawn('git', args, { cwd: options.cwd, env: gitEnv(options.env), stdio: 'pipe' })
    const stdout: Buffer[] = []
    const stderr: Buffer[] = []
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk))
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk))
    child.on('error', (error) => reject(new GitError(command, null, `could not run git: ${error.message}`)))
    child.on('close', (code, signal) => {
      if (code === 0) resolve({ stdout: Buffer.concat(stdout) })
      else {
        const output = Buffer.concat(stderr).toString('utf8').trim()
        reject(new GitError(command, code, signal ? `killed by ${signal}${output ? `: ${output}` : ''}` : output))
      }
    })
    // git may exit before reading all of its input; its exit code reports why.
    child.stdin.on('error', () => {})
    child.stdin.end(options.input ?? '')
  })
}

/** Runs `git <args>` and resolves with its standard output as utf-8 text. */
export async function runGit(args: readonly string[], options: RunGitOptions): Promise<{ stdout: string }> {
  const { stdout } = await runGitBytes(args, options)
  return { stdout: stdout.toString('utf8') }
}
