import type { StateChange, StateSnapshot, StateStore } from './store.js'

/**
 * `dry-run: true`: reads the real state branch, keeps every commit in memory instead of writing it.
 * Later snapshots in the same run see those changes, so a command behaves as it would for real.
 */
export class DryRunStore implements StateStore {
  readonly branch: string
  readonly changes: StateChange[] = []
  private readonly overlay = new Map<string, string | null>()

  constructor(private readonly real: StateStore) {
    this.branch = real.branch
  }

  async snapshot(prefetch?: readonly string[]): Promise<StateSnapshot> {
    const base = await this.real.snapshot(prefetch)
    const head = this.changes.length ? `dry-run-${this.changes.length}` : base.head
    return {
      head,
      read: async (path) => (this.overlay.has(path) ? this.overlay.get(path) ?? undefined : base.read(path)),
    }
  }

  async commit(change: StateChange): Promise<string> {
    this.changes.push(change)
    for (const [path, content] of Object.entries(change.files)) this.overlay.set(path, content)
    return `dry-run-${this.changes.length}`
  }
}
