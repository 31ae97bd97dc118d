import { execFile } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export interface GitResult {
  code: number
  stdout: string
  stderr: string
}

/**
 * A temporary directory to run the real `git` in, as a client of the emulator: nothing of the machine's git
 * configuration (system, global, credential helpers) applies, and git never prompts.
 */
export class GitClient {
  private constructor(readonly dir: string) {}

  static async create(): Promise<GitClient> {
    return new GitClient(await mkdtemp(join(tmpdir(), 'emulator-git-client-')))
  }

  /** `git <args>` in `cwd` (relative to the temporary directory); never throws, see `code`. */
  run(args: readonly string[], options: { cwd?: string; env?: Record<string, string> } = {}): Promise<GitResult> {
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: this.dir,
      LC_ALL: 'C',
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CONFIG_GLOBAL: '/dev/null',
      GIT_TERMINAL_PROMPT: '0',
      GIT_AUTHOR_NAME: 'Mona',
      GIT_AUTHOR_EMAIL: 'mona@example.com',
      GIT_COMMITTER_NAME: 'Mona',
      GIT_COMMITTER_EMAIL: 'mona@example.com',
      ...options.env,
    }
    return new Promise((resolve) => {
      execFile('git', args, { cwd: join(this.dir, options.cwd ?? '.'), env }, (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 1
        resolve({ code, stdout: stdout.trim(), stderr: stderr.trim() })
      })
    })
  }

  /** Like `run`, but throws when git fails; returns its standard output. */
  async ok(args: readonly string[], options: { cwd?: string; env?: Record<string, string> } = {}): Promise<string> {
    const result = await this.run(args, options)
    if (result.code !== 0) throw new Error(`git ${args.join(' ')} exited with ${result.code}:\n${result.stderr}`)
    return result.stdout
  }

  path(...parts: string[]): string {
    return join(this.dir, ...parts)
  }

  async remove(): Promise<void> {
    await rm(this.dir, { recursive: true, force: true })
  }
}
