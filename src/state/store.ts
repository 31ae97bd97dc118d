/**
 * The state branch (SPEC §4) as a store of text files where every change is one atomic commit.
 * Implementations: a local git repository (git plumbing) and a GitHub repository (API).
 */

export interface StateSnapshot {
  /** The commit this snapshot was read at; null while the branch does not exist. */
  readonly head: string | null
  /** A file's text at `head`, or undefined when it does not exist. */
  read(path: string): Promise<string | undefined>
}

/** Files to write (text) or delete (null), as one commit with `message`. */
export interface StateChange {
  message: string
  files: Record<string, string | null>
}

export interface StateStore {
  readonly branch: string
  /** Reads the branch head. `prefetch` names files the caller will read, so a remote store can fetch them at once. */
  snapshot(prefetch?: readonly string[]): Promise<StateSnapshot>
  /**
   * Commits `change` on top of `expectedHead` — the full oid from `snapshot()`, or null to create the
   * branch as an orphan — and returns the new commit. Throws StaleHeadError, having written nothing, when the branch is no longer at `expectedHead`.
   */
  commit(change: StateChange, expectedHead: string | null): Promise<string>
}

export class StaleHeadError extends Error {
  constructor(branch: string, expected: string | null, actual: string | null) {
    super(`State branch ${branch} moved: expected ${expected ?? '(no branch)'}, found ${actual ?? '(no branch)'}`)
    this.name = 'StaleHeadError'
  }
}

export interface TransactResult {
  /** The new commit, or null when the change was empty or wrote what was already there. */
  commit: string | null
  attempts: number
}

/**
 * Reads the head, computes a change from it and commits it; when another writer got there first, reads
 * again and recomputes, so concurrent writers never lose each other's updates. `apply` must be a pure
 * function of the snapshot (it may run several times) and may return null for "nothing to do".
 *
 * Writers in one process take turns per store (they would only make each other retry); writers in other
 * processes or runs are spread out by exponential backoff with full jitter.
 */
export async function transact(
  store: StateStore,
  apply: (snapshot: StateSnapshot) => Promise<StateChange | null> | StateChange | null,
  options: { prefetch?: readonly string[]; maxAttempts?: number; initial?: StateSnapshot } = {},
): Promise<TransactResult> {
  return inTurn(store, async () => {
    const maxAttempts = options.maxAttempts ?? 30
    for (let attempt = 1; ; attempt++) {
      // A snapshot the caller already read serves the first attempt; a lost race always reads anew.
      const snapshot = attempt === 1 && options.initial ? options.initial : await store.snapshot(options.prefetch)
      const proposed = await apply(snapshot)
      const change = proposed && (await effectiveChange(snapshot, proposed))
      if (!change) return { commit: null, attempts: attempt }
      try {
        return { commit: await store.commit(change, snapshot.head), attempts: attempt }
      } catch (error) {
        if (!(error instanceof StaleHeadError) || attempt >= maxAttempts) {
          throw withContext(error, `the state branch did not take "${change.message.split('\n')[0]}"`)
        }
        await sleep(Math.random() * Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** attempt))
      }
    }
  })
}

/** Says what was being done in the error's message; the error stays the same object (its status, its class). */
export function withContext(error: unknown, doing: string): unknown {
  if (error instanceof Error) error.message = `${doing}: ${error.message}`
  return error
}

const BACKOFF_BASE_MS = 25
const BACKOFF_CAP_MS = 2_000

const turns = new WeakMap<StateStore, Promise<unknown>>()

/** Runs `work` after every earlier `inTurn` call on the same store has settled. */
function inTurn<T>(store: StateStore, work: () => Promise<T>): Promise<T> {
  const previous = turns.get(store) ?? Promise.resolve()
  const mine = previous.then(work, work)
  turns.set(store, mine.catch(() => undefined))
  return mine
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}

/** The change without entries that would leave a file as it is (same text, or deleting what is absent). */
async function effectiveChange(snapshot: StateSnapshot, change: StateChange): Promise<StateChange | null> {
  const files: StateChange['files'] = {}
  for (const [path, content] of Object.entries(change.files)) {
    if ((content ?? undefined) !== (await snapshot.read(path))) files[path] = content
  }
  return Object.keys(files).length ? { message: change.message, files } : null
}
