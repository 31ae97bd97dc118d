/** Throw-away git repositories for the state store tests. */
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { identityEnv, runGit } from '../../src/git/git.js'
import { resolveRef } from '../../src/git/refs.js'

const TEST_IDENTITY = identityEnv({ name: 'Test User', email: 'test@example.com' })

export interface TempRepo {
  dir: string
  git: (...args: string[]) => Promise<string>
  cleanup: () => Promise<void>
}

async function tempRepo(initArgs: string[]): Promise<TempRepo> {
  const dir = await mkdtemp(join(tmpdir(), 'converge-state-test-'))
  const git = async (...args: string[]) =>
    (await runGit(['-c', 'commit.gpgsign=false', ...args], { cwd: dir, env: TEST_IDENTITY })).stdout.trim()
  await git('init', '--quiet', ...initArgs)
  return { dir, git, cleanup: () => rm(dir, { recursive: true, force: true }) }
}

export function bareRepo(): Promise<TempRepo> {
  return tempRepo(['--bare'])
}

/**
 * A repository with `main` checked out at one commit, and a working tree that is anything but clean: a modified
 * tracked file, a staged new file and an untracked file.
 */
export async function busyWorkingRepo(): Promise<TempRepo> {
  const repo = await tempRepo(['--initial-branch=main'])
  await writeFile(join(repo.dir, 'README.md'), '# project\n')
  await repo.git('add', 'README.md')
  await repo.git('commit', '--quiet', '-m', 'initial')
  await writeFile(join(repo.dir, 'README.md'), '# project\n\nunsaved edit\n')
  await writeFile(join(repo.dir, 'staged.txt'), 'staged\n')
  await repo.git('add', 'staged.txt')
  await writeFile(join(repo.dir, 'untracked.txt'), 'untracked\n')
  return repo
}

/** Commits reachable from `branch`, 0 when it does not exist. */
export async function countCommits(repo: TempRepo, branch: string): Promise<number> {
  const ref = `refs/heads/${branch}`
  if ((await resolveRef(repo.dir, ref)) === null) return 0
  return Number(await repo.git('rev-list', '--count', ref))
}
