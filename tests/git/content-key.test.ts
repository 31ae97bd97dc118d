/**
 * `contentKey` (the check memo's key of the checkout's content) when one of its git commands fails: a cancelled job
 * sends SIGTERM to the whole process group, so any git the run has under way may be killed. The key's promise must
 * reject, and nothing else: a rejection no one handles ends the action's process before it records the run (the
 * kill-and-resume suite found one, leaving the execution recorded as running and its check run in progress). It
 * mocks git.js, so it runs alone in a fresh worker (vitest.config.ts: RUN_ALONE).
 */
import { mkdtemp, rm, utimes, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { identityEnv, runGit } from '../../src/git/git.js'
import { contentKey } from '../../src/git/task-change.js'

/** When set, git commands listing ignored files fail as a git killed by SIGTERM does. */
const killed = vi.hoisted(() => ({ ignoredListing: false }))

vi.mock('../../src/git/git.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../src/git/git.js')>()
  return {
    ...actual,
    runGit: (args: readonly string[], options: Parameters<typeof actual.runGit>[1]) =>
      killed.ignoredListing && args.includes('--ignored')
        ? Promise.reject(new actual.GitError(`git ${args.join(' ')}`, null, 'killed by SIGTERM'))
        : actual.runGit(args, options),
  }
})

let dir: string
const unhandled: unknown[] = []
const onUnhandled = (reason: unknown) => unhandled.push(reason)

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'converge-content-key-'))
  const git = (args: string[]) => runGit(args, { cwd: dir, env: identityEnv({ name: 't', email: 't@t' }) })
  await git(['init', '--quiet'])
  await writeFile(join(dir, 'a.txt'), 'a\n')
  await writeFile(join(dir, '.gitignore'), 'build/\n')
  await git(['add', '.'])
  await git(['commit', '--quiet', '-m', 'a'])
  unhandled.length = 0
  process.on('unhandledRejection', onUnhandled)
})
afterEach(async () => {
  process.off('unhandledRejection', onUnhandled)
  killed.ignoredListing = false
  await rm(dir, { recursive: true, force: true })
})

describe('contentKey', () => {
  it('is the same for the same content, and tells a file changed within the second its index was written', async () => {
    // The file's stamp and the index were both written in second S (git's "racily clean" entry): a change of the
    // same size with the same modification time shows in the content only, which git reads again only when the
    // index it works on is not newer than the entry.
    const file = join(dir, 'a.txt')
    const second = new Date(Math.floor(Date.now() / 1000) * 1000 - 100_000)
    await utimes(file, second, second)
    await runGit(['add', 'a.txt'], { cwd: dir })
    await utimes(join(dir, '.git', 'index'), second, second)
    const first = await contentKey(dir)
    expect(await contentKey(dir)).toBe(first)
    await writeFile(file, 'b\n')
    await utimes(file, second, second)
    expect(await contentKey(dir)).not.toBe(first)
  })

  it('rejects with the git error when its listing of ignored files is killed, leaving no rejection unhandled', async () => {
    killed.ignoredListing = true
    await expect(contentKey(dir)).rejects.toThrow(/ls-files .*--ignored.* failed: killed by SIGTERM/)
    // Unhandled rejections are reported once the turn of the event loop that saw them ends.
    await new Promise((resolve) => setTimeout(resolve, 50))
    // Only this test's git error counts: other files running in this worker may have rejections of their own.
    expect(unhandled.filter((reason) => reason instanceof Error && reason.message.includes('--ignored'))).toEqual([])
  })
})
