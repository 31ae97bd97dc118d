/**
 * What every StateStore must do (SPEC §4): each commit() is one atomic commit on the state branch, guarded by
 * the expected head, so transact() never loses a concurrent writer's update.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { InvalidTreePathError } from '../../src/git/tree-path.js'
import { statePaths, toStateJson } from '../../src/model/state-layout.js'
import { type StateSnapshot, type StateStore, StaleHeadError, transact } from '../../src/state/store.js'
import { FULL_SUITE } from './suite-size.js'

export interface StoreFixture {
  /** A store whose branch does not exist yet. */
  store: StateStore
  cleanup: () => Promise<void>
  /** Commits on the store's branch (0 while it does not exist). */
  commitCount: () => Promise<number>
  /** Another store on the same branch, as a second runner would have. */
  open: () => StateStore
}

/** The file every concurrent writer updates. */
interface SharedState {
  count: number
  issues: number[]
}

/** Writers racing on one branch: 20 in CI; in `npm test` 6, which already race (each retry re-reads and re-applies). */
const WRITERS = FULL_SUITE ? 20 : 6

/** Many writers retrying against one branch: slow on a busy machine, so more time than a usual test. */
const HEAVY_TEST_TIMEOUT = 180_000

/** A well-formed commit oid that no store has. */
const UNKNOWN_OID = '0123456789abcdef0123456789abcdef01234567'

export function describeStoreContract(name: string, makeStore: () => Promise<StoreFixture>): void {
  describe(`${name}: StateStore contract`, () => {
    let fixture: StoreFixture
    let store: StateStore

    beforeEach(async () => {
      fixture = await makeStore()
      store = fixture.store
    })
    afterEach(async () => {
      await fixture.cleanup()
    })

    /** Commits `files` on the current head and returns the new head. */
    async function write(files: Record<string, string | null>, message = 'test: write'): Promise<string> {
      const { head } = await store.snapshot()
      return store.commit({ message, files }, head)
    }

    it('starts with no branch and creates it, as a root commit, on the first commit', async () => {
      const empty = await store.snapshot()
      expect(empty.head).toBeNull()
      expect(await empty.read('a.txt')).toBeUndefined()
      expect(await fixture.commitCount()).toBe(0)

      const commit = await store.commit({ message: 'first', files: { 'a.txt': 'one' } }, null)

      expect(commit).toMatch(/^[0-9a-f]{40,64}$/)
      expect((await store.snapshot()).head).toBe(commit)
      expect(await fixture.commitCount()).toBe(1)
    })

    it('makes exactly one commit per commit() and moves the head to it', async () => {
      for (let i = 1; i <= 3; i++) {
        const commit = await write({ 'counter.txt': String(i) }, `write ${i}`)
        expect((await store.snapshot()).head).toBe(commit)
        expect(await fixture.commitCount()).toBe(i)
      }
    })

    it('reads back what was written, byte for byte, with or without prefetching', async () => {
      const files = {
        [statePaths.runState]: toStateJson({ issues: [1, 2] }),
        [statePaths.issue(42)]: toStateJson({ title: 'Unicode: 中文 ✓ émoji 🚀', body: 'line 1\r\nline 2\n' }),
        [statePaths.events(42)]: '',
        'top level with spaces.md': '# title\n\n- item\n',
        'deep/a/b/c/d/e.txt': 'x'.repeat(200_000),
        '"quoted".txt': 'quoted',
      }
      await write(files)

      const plain = await store.snapshot()
      const prefetched = await store.snapshot([...Object.keys(files), 'missing.txt'])
      for (const snapshot of [plain, prefetched]) {
        for (const [path, content] of Object.entries(files)) expect(await snapshot.read(path)).toBe(content)
        expect(await snapshot.read('missing.txt')).toBeUndefined()
        expect(await snapshot.read('deep/a/missing.txt')).toBeUndefined()
        expect(await snapshot.read('deep/a')).toBeUndefined() // a directory is not a file
      }
    })

    it('keeps files a change does not name and deletes the files it maps to null', async () => {
      await write({ 'a.txt': 'a', 'b.txt': 'b', 'dir/c.txt': 'c', 'dir/d.txt': 'd' })
      await write({ 'a.txt': null, 'e.txt': 'e', 'dir/c.txt': null })
      await write({ 'dir/d.txt': null, 'never-existed.txt': null })

      const snapshot = await store.snapshot()
      expect(await snapshot.read('a.txt')).toBeUndefined()
      expect(await snapshot.read('b.txt')).toBe('b')
      expect(await snapshot.read('dir/c.txt')).toBeUndefined()
      expect(await snapshot.read('dir/d.txt')).toBeUndefined()
      expect(await snapshot.read('e.txt')).toBe('e')
      expect(await fixture.commitCount()).toBe(3)
    })

    it('keeps reading a snapshot at the commit it was taken at', async () => {
      await write({ 'a.txt': 'old' })
      const before = await store.snapshot()
      await write({ 'a.txt': 'new', 'b.txt': 'b' })

      expect(await before.read('a.txt')).toBe('old')
      expect(await before.read('b.txt')).toBeUndefined()
      expect(await (await store.snapshot()).read('a.txt')).toBe('new')
    })

    it('rejects a stale expected head with StaleHeadError and writes nothing', async () => {
      const first = await write({ 'a.txt': '1' })
      const second = await write({ 'a.txt': '2' })

      await expect(store.commit({ message: 'stale', files: { 'a.txt': '3', 'b.txt': 'b' } }, first)).rejects.toThrow(
        StaleHeadError,
      )
      await expect(store.commit({ message: 'create again', files: { 'b.txt': 'b' } }, null)).rejects.toThrow(
        StaleHeadError,
      )
      await expect(store.commit({ message: 'unknown', files: { 'b.txt': 'b' } }, UNKNOWN_OID)).rejects.toThrow(
        StaleHeadError,
      )

      const snapshot = await store.snapshot()
      expect(snapshot.head).toBe(second)
      expect(await snapshot.read('a.txt')).toBe('2')
      expect(await snapshot.read('b.txt')).toBeUndefined()
      expect(await fixture.commitCount()).toBe(2)
    })

    it('rejects an expected head while the branch does not exist yet', async () => {
      await expect(store.commit({ message: 'unknown', files: { 'a.txt': 'a' } }, UNKNOWN_OID)).rejects.toThrow(
        StaleHeadError,
      )
      expect((await store.snapshot()).head).toBeNull()
      expect(await fixture.commitCount()).toBe(0)
    })

    it('refuses paths that are not relative, normalised file paths, writing nothing', async () => {
      await write({ 'a.txt': 'a' })
      const invalid = ['', '/abs.txt', '../up.txt', 'a/../b.txt', './a.txt', 'a//b.txt', 'dir/', 'a\nb.txt']
      for (const path of invalid) {
        await expect(store.commit({ message: 'bad', files: { [path]: 'x' } }, null)).rejects.toThrow(
          InvalidTreePathError,
        )
        await expect((await store.snapshot()).read(path)).rejects.toThrow(InvalidTreePathError)
      }
      expect(await fixture.commitCount()).toBe(1)
    })

    it('transact() re-reads and re-applies its change after losing a race', async () => {
      const path = statePaths.runState
      await write({ [path]: toStateJson({ entries: [] }) })
      let applied = 0

      const result = await transact(store, async (snapshot) => {
        applied++
        const state = JSON.parse((await snapshot.read(path)) as string) as { entries: string[] }
        if (applied === 1) {
          // Another writer commits between this writer's read and its commit.
          const theirs = toStateJson({ entries: [...state.entries, 'theirs'] })
          await store.commit({ message: 'theirs', files: { [path]: theirs } }, snapshot.head)
        }
        return { message: 'mine', files: { [path]: toStateJson({ entries: [...state.entries, 'mine'] }) } }
      })

      expect(result.attempts).toBe(2)
      expect(applied).toBe(2)
      const snapshot = await store.snapshot()
      expect(result.commit).toBe(snapshot.head)
      expect(JSON.parse((await snapshot.read(path)) as string)).toEqual({ entries: ['theirs', 'mine'] })
      expect(await fixture.commitCount()).toBe(3)
    })

    it('transact() makes no commit when the change writes what is already there', async () => {
      await write({ 'a.txt': 'a', 'b.txt': 'b' })

      const unchanged = await transact(store, () => ({ message: 'same', files: { 'a.txt': 'a', gone: null } }))
      const nothing = await transact(store, () => null)
      const changed = await transact(store, () => ({ message: 'one change', files: { 'a.txt': 'a', 'b.txt': 'B' } }))

      expect(unchanged).toEqual({ commit: null, attempts: 1 })
      expect(nothing).toEqual({ commit: null, attempts: 1 })
      expect(changed.commit).not.toBeNull()
      expect(await fixture.commitCount()).toBe(2)
    })

    /** Each writer registers its issue and appends it to one shared file (read-modify-write). */
    const register = (n: number) => async (snapshot: StateSnapshot) => {
      const current = await snapshot.read(statePaths.runState)
      const state: SharedState = current ? JSON.parse(current) : { count: 0, issues: [] }
      return {
        message: `ISS-${n}: opened`,
        files: {
          [statePaths.issue(n)]: toStateJson({ number: n }),
          [statePaths.runState]: toStateJson({ count: state.count + 1, issues: [...state.issues, n] }),
        },
      }
    }

    const expectAllRegistered = async (writers: number[]) => {
      expect(await fixture.commitCount()).toBe(writers.length)
      const snapshot = await store.snapshot()
      const state = JSON.parse((await snapshot.read(statePaths.runState)) as string) as SharedState
      expect(state.count).toBe(writers.length)
      expect([...state.issues].sort((a, b) => a - b)).toEqual(writers)
      for (const n of writers) expect(JSON.parse((await snapshot.read(statePaths.issue(n))) as string)).toEqual({ number: n })
    }

    it(`loses nothing when ${WRITERS} writers, each with its own store, transact at once`, async () => {
      const writers = Array.from({ length: WRITERS }, (_, i) => i + 1)
      const results = await Promise.all(
        writers.map((n) => transact(fixture.open(), register(n), { prefetch: [statePaths.runState] })),
      )
      expect(results.every((result) => result.commit !== null)).toBe(true)
      // They really raced: someone lost a compare-and-swap and re-applied its change.
      expect(Math.max(...results.map((r) => r.attempts))).toBeGreaterThan(1)
      await expectAllRegistered(writers)
    }, HEAVY_TEST_TIMEOUT)

    it(`lets ${WRITERS} writers sharing one store take turns, so none of them retries`, async () => {
      const writers = Array.from({ length: WRITERS }, (_, i) => i + 1)
      const results = await Promise.all(writers.map((n) => transact(store, register(n), { prefetch: [statePaths.runState] })))
      expect(results.map((r) => r.attempts)).toEqual(writers.map(() => 1))
      await expectAllRegistered(writers)
    })
  })
}
