import { spawn } from 'node:child_process'
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { GitError } from '../../src/git/git.js'
import { statePaths, toStateJson } from '../../src/model/state-layout.js'
import { LocalGitStore } from '../../src/state/local-git-store.js'
import { transact } from '../../src/state/store.js'
import { FULL_SUITE } from '../support/suite-size.js'
import { type TempRepo, busyWorkingRepo, countCommits } from '../support/temp-repos.js'

const BRANCH = 'converge/state'

describe('LocalGitStore', () => {
  let repo: TempRepo
  let store: LocalGitStore

  beforeEach(async () => {
    repo = await busyWorkingRepo()
    store = new LocalGitStore({ repoDir: repo.dir })
  })
  afterEach(async () => {
    await repo.cleanup()
  })

  async function write(files: Record<string, string | null>): Promise<string> {
    const { head } = await store.snapshot()
    return store.commit({ message: 'ISS-1: test', files }, head)
  }

  /** Everything a user could see of the checkout: HEAD, index, working tree. */
  async function checkoutState() {
    return {
      head: await repo.git('rev-parse', 'HEAD'),
      headRef: await repo.git('symbolic-ref', 'HEAD'),
      status: await repo.git('status', '--porcelain', '--untracked-files=all'),
      staged: await repo.git('diff', '--cached'),
      unstaged: await repo.git('diff'),
      index: await repo.git('ls-files', '--stage'),
      files: await readdir(repo.dir),
      readme: await readFile(join(repo.dir, 'README.md'), 'utf8'),
    }
  }

  it('leaves HEAD, the index and the working tree exactly as they were', async () => {
    const before = await checkoutState()

    await write({ [statePaths.issue(1)]: '{}\n', 'README.md': 'state branch readme\n', 'staged.txt': 'other\n' })
    await write({ 'README.md': null, [statePaths.runState]: '{}\n' })

    expect(await checkoutState()).toEqual(before)
    expect(before.files).not.toContain('.converge')
  })

  it('makes each write exactly one commit on an orphan branch, by Converge', async () => {
    const first = await write({ 'a.txt': '1' })
    await write({ 'a.txt': '2' })
    await write({ 'b.txt': '3' })

    expect(await repo.git('rev-list', '--count', `refs/heads/${BRANCH}`)).toBe('3')
    expect(await repo.git('rev-list', '--max-parents=0', `refs/heads/${BRANCH}`)).toBe(first)
    await expect(repo.git('merge-base', 'main', BRANCH)).rejects.toMatchObject({ exitCode: 1 })
    expect(await repo.git('log', '-1', '--format=%an <%ae>|%cn <%ce>|%s', BRANCH)).toBe(
      'Converge <converge@users.noreply.github.com>|Converge <converge@users.noreply.github.com>|ISS-1: test',
    )
    expect(await repo.git('ls-tree', '-r', '--name-only', BRANCH)).toBe('a.txt\nb.txt')
  })

  it('writes to the branch and as the identity it is given', async () => {
    const custom = new LocalGitStore({
      repoDir: repo.dir,
      branch: 'state/custom',
      identity: { name: 'Bot', email: 'bot@example.com' },
    })
    await custom.commit({ message: 'custom', files: { 'a.txt': 'a' } }, null)

    expect(await repo.git('log', '-1', '--format=%an <%ae>', 'refs/heads/state/custom')).toBe('Bot <bot@example.com>')
    expect(await countCommits(repo, BRANCH)).toBe(0)
  })

  it('loses nothing when writers in separate processes transact at once', async () => {
    // 8 processes in CI; 3 in `npm test`, which already race (each one a node process of its own).
    const workers = FULL_SUITE ? 8 : 3
    const writesEach = 3
    // No git configuration at all, as on a fresh machine: the store must bring its own identity.
    const home = await mkdtemp(join(tmpdir(), 'converge-home-'))
    try {
      const env = { ...process.env, HOME: home, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: join(home, 'none') }
      await Promise.all(
        Array.from({ length: workers }, (_, w) => runWorker([repo.dir, `w${w}`, String(writesEach)], env)),
      )
    } finally {
      await rm(home, { recursive: true, force: true })
    }

    const expected = Array.from({ length: workers }, (_, w) =>
      Array.from({ length: writesEach }, (_, i) => `w${w}-${i + 1}`),
    ).flat()
    expect(await countCommits(repo, BRANCH)).toBe(workers * writesEach)
    const snapshot = await store.snapshot()
    const state = JSON.parse((await snapshot.read(statePaths.runState)) as string) as { entries: string[] }
    expect([...state.entries].sort()).toEqual([...expected].sort())
    for (const entry of expected) {
      expect(JSON.parse((await snapshot.read(`.converge/entries/${entry}.json`)) as string)).toMatchObject({ entry })
    }
  }, 180_000) // many processes retrying against one branch: slow on a busy machine

  it('retries while another writer holds the ref lock, and reports a lock that stays as a GitError', async () => {
    const head = await write({ 'a.txt': 'a' })
    const lock = join(repo.dir, '.git', 'refs', 'heads', `${BRANCH}.lock`)
    await writeFile(lock, '')
    setTimeout(() => void rm(lock), 150)
    const next = await store.commit({ message: 'after the lock', files: { 'a.txt': 'b' } }, head)
    expect((await store.snapshot()).head).toBe(next)

    await writeFile(lock, '')
    const locked = store.commit({ message: 'locked', files: { 'a.txt': 'c' } }, next)
    await expect(locked).rejects.toBeInstanceOf(GitError)
    await expect(locked).rejects.toThrow(/cannot lock ref/)
    expect((await store.snapshot()).head).toBe(next)
  })

  it('reads each file from git once per snapshot', async () => {
    await write({ 'a.txt': 'a' })
    const snapshot = await store.snapshot(['a.txt'])
    // With the object store gone, only a file the snapshot has already read can still be read.
    await rm(join(repo.dir, '.git', 'objects'), { recursive: true })
    expect(await snapshot.read('a.txt')).toBe('a')
    await expect(snapshot.read('b.txt')).rejects.toThrow()
  })

  it('commits nothing when transact finds the files already written', async () => {
    await write({ [statePaths.runState]: toStateJson({ a: 1 }) })
    const same = { message: 'same', files: { [statePaths.runState]: toStateJson({ a: 1 }) } }
    const result = await transact(store, () => same)
    expect(result.commit).toBeNull()
    expect(await countCommits(repo, BRANCH)).toBe(1)
  })
})

const WORKER = fileURLToPath(new URL('./fixtures/transact-worker.ts', import.meta.url))

/** Runs the transact worker in its own Node process (TypeScript through tsx). */
function runWorker(args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', WORKER, ...args], {
      env,
      stdio: ['ignore', 'ignore', 'pipe'],
    })
    let stderr = ''
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')))
    child.on('error', reject)
    child.on('close', (code) => {
      if (code === 0) resolve()
      else reject(new Error(`worker ${args[1]} exited with ${code}: ${stderr}`))
    })
  })
}
