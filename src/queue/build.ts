/**
 * The repository's queue of solutions (SPEC §11, after CCW's issue queue): items S-1… in priority order,
 * placed in execution groups by the files they change. Solutions that share a file, directly or through
 * others, form a connected component of the "changes a file in common" relation; each component of two or
 * more is a sequential group (one after the other, in queue order), and the solutions that share no file
 * with any other form one parallel group. No two groups change the same file, so groups never wait for
 * each other. An issue blocked by another queued one (GitHub's `blocked_by`, "depends on #12", an ordered epic)
 * comes after it in the queue and in the same sequential group, so it never runs first. Pure: no I/O,
 * O(items + files + blockers) plus a sort.
 */
import type { IssueStatus, Priority, QueueItem, Solution } from '../model/index.js'
import { issueId } from '../model/index.js'
import type { Blocker } from './blockers.js'
import { priorityRank } from './priority.js'
import { normalisePath } from '../plan/dag.js'

/** A planned solution, as the queue sees it. */
export interface QueueCandidate {
  /** The issue number. */
  number: number
  solutionId: string
  /** The issue's status: an issue already executing (or paused mid-run) keeps its head start. */
  status: IssueStatus
  priority: Priority
  prioritySource: 'label' | 'tasks'
  /** Paths the solution changes. */
  files: readonly string[]
  /** The issues it waits for that are not done yet (see `openBlockers`). */
  waitsFor?: readonly Blocker[]
}

export interface QueueGroup {
  /** `P<k>` (parallel) or `S<k>` (sequential). */
  id: string
  kind: 'parallel' | 'sequential'
  /** In order: for a sequential group, the order they run in. */
  items: QueueItem[]
  /** Sequential groups: the files two or more of its items change (why they are serialized). */
  sharedFiles: string[]
}

/** An issue that has started: its solution goes first in its group, whatever the priorities. */
export function hasStarted(status: IssueStatus): boolean {
  return status === 'executing' || status === 'paused'
}

/** Queue order: started first, then the more urgent, then the lower issue number. */
export function compareCandidates(a: QueueCandidate, b: QueueCandidate): number {
  return Number(hasStarted(b.status)) - Number(hasStarted(a.status)) || priorityRank(a.priority) - priorityRank(b.priority) || a.number - b.number
}

/** The paths a solution's tasks change, normalised (`./src/a.ts` is `src/a.ts`), sorted, without duplicates. */
export function solutionFiles(solution: Pick<Solution, 'tasks'>): string[] {
  const paths = new Set<string>()
  for (const task of solution.tasks) for (const file of task.files) paths.add(normalisePath(file.path))
  paths.delete('')
  return [...paths].sort()
}

/**
 * The queue items for `candidates` (one per issue; a later duplicate of an issue replaces an earlier one),
 * numbered S-1… in queue order, each with its group, its position in the group, what it waits for and why.
 */
export function buildQueue(candidates: readonly QueueCandidate[]): QueueItem[] {
  const byIssue = new Map<number, QueueCandidate>()
  for (const c of candidates) byIssue.set(c.number, { ...c, files: [...new Set(c.files.map(normalisePath))].filter(Boolean).sort() })
  const sorted = blockersFirst([...byIssue.values()].sort(compareCandidates))
  const n = sorted.length
  const ids = sorted.map((_, i) => `S-${i + 1}`)
  const index = new Map(sorted.map((c, i) => [c.number, i]))
  // Per item, the queued items it waits for (they all come before it) and the blockers outside the queue.
  const queuedBlockers = sorted.map((c) => (c.waitsFor ?? []).flatMap((b) => (index.has(b.number) ? [index.get(b.number)!] : [])))
  const otherBlockers = sorted.map((c) => (c.waitsFor ?? []).filter((b) => !index.has(b.number)))

  // Connected components of "changes a file in common" or "waits for", by union-find over the first solution seen per file.
  const parent = Int32Array.from({ length: n }, (_, i) => i)
  const find = (i: number): number => {
    while (parent[i] !== i) i = parent[i] = parent[parent[i]!]!
    return i
  }
  const unite = (x: number, y: number) => {
    const a = find(x)
    const b = find(y)
    // The root is the component's earliest member, so components come out ordered by their first item.
    if (a !== b) parent[Math.max(a, b)] = Math.min(a, b)
  }
  const firstWithFile = new Map<string, number>()
  for (let i = 0; i < n; i++) {
    for (const file of sorted[i]!.files) {
      const first = firstWithFile.get(file)
      if (first === undefined) firstWithFile.set(file, i)
      else unite(first, i)
    }
    for (const blocker of queuedBlockers[i]!) unite(blocker, i)
  }
  const components = new Map<number, number[]>()
  for (let i = 0; i < n; i++) {
    const root = find(i)
    const members = components.get(root)
    if (members) members.push(i)
    else components.set(root, [i])
  }
  const independent: number[] = []
  const sequential: number[][] = []
  for (const members of components.values()) {
    if (members.length > 1) sequential.push(members)
    else independent.push(members[0]!)
  }
  const waitingNote = (i: number) => (otherBlockers[i]!.length ? `; waits for ${blockerList(otherBlockers[i]!)}, not queued` : '')

  const items: QueueItem[] = new Array(n)
  // Keys in the schema's order, so that the item reads back (and is written again) exactly as built.
  const item = (i: number, place: { group: string; position: number; reason: string; depends_on: string[] }): QueueItem => {
    const c = sorted[i]!
    return {
      item_id: ids[i]!,
      issue_id: issueId(c.number),
      solution_id: c.solutionId,
      status: itemStatusOf(c.status),
      group: place.group,
      position: place.position,
      reason: place.reason,
      depends_on: place.depends_on,
      files: [...c.files],
      priority: c.priority,
      priority_source: c.prioritySource,
    }
  }
  let groupNumber = 0
  if (independent.length) {
    const group = `P${++groupNumber}`
    const alone = independent.length === 1
    independent.forEach((i, k) => {
      items[i] = item(i, {
        group,
        position: k + 1,
        depends_on: [],
        reason: (sorted[i]!.files.length
          ? `${group}: changes no file another queued solution changes${alone ? '' : ', so it runs alongside the rest of the group'}`
          : `${group}: its plan names no file, so it conflicts with nothing${alone ? '' : ' and runs alongside the rest of the group'}`) + waitingNote(i),
      })
    })
  }
  for (const members of sequential.sort((a, b) => a[0]! - b[0]!)) {
    const group = `S${++groupNumber}`
    const shared = sharedFiles(members.map((i) => sorted[i]!.files))
    const lastWith = new Map<string, number>()
    // For each member, the nearest later member it shares a file with (a reverse pass: O(files)).
    const nextSharing: number[] = new Array(members.length)
    const firstAfter = new Map<string, number>()
    for (let k = members.length - 1; k >= 0; k--) {
      const i = members[k]!
      let next = Number.MAX_SAFE_INTEGER
      for (const file of sorted[i]!.files) next = Math.min(next, firstAfter.get(file) ?? Number.MAX_SAFE_INTEGER)
      nextSharing[k] = next
      for (const file of sorted[i]!.files) firstAfter.set(file, i)
    }
    members.forEach((i, k) => {
      const c = sorted[i]!
      let reason: string
      const waits = queuedBlockers[i]!
      if (k === 0) {
        const next = members[1]!
        const because = [shared.length && `they change ${fileList(shared)}`, members.some((m) => queuedBlockers[m]!.length) && 'some wait for others'].filter(Boolean).join(' and ')
        reason = `first of ${group} (${orderWhy(c, sorted[next]!, ids[i]!)}): ${group} runs ${members.length} solutions one after the other because ${because}`
      } else {
        const previous = members[k - 1]!
        const common = intersect(sorted[previous]!.files, c.files)
        const why = orderWhy(sorted[previous]!, c, ids[previous]!)
        if (waits.length) {
          reason = `after ${ids[previous]}: waits for ${waits.map((b) => `#${sorted[b]!.number} (${ids[b]})`).join(', ')}`
        } else if (common.length) reason = `after ${ids[previous]}: both change ${fileList(common)} (${why})`
        else {
          // Not in conflict with the item before it: it waits for its turn in the group, and names the item it does conflict with.
          let closest = -1
          for (const file of c.files) closest = Math.max(closest, lastWith.get(file) ?? -1)
          // None before it (it joined the group through a later item): the first later one it shares a file with.
          if (closest < 0) closest = nextSharing[k]!
          if (closest < n) {
            const withIt = intersect(sorted[closest]!.files, c.files)
            const where = closest < i ? '' : ', which comes later'
            reason = `after ${ids[previous]}, one at a time in ${group}: it changes ${fileList(withIt)} like ${ids[closest]}${where} (${why})`
          } else {
            // In the group only because a later item waits for it.
            const waiter = members.find((m) => queuedBlockers[m]!.includes(i))!
            reason = `after ${ids[previous]}, one at a time in ${group}: ${ids[waiter]} (#${sorted[waiter]!.number}) waits for it (${why})`
          }
        }
      }
      for (const file of c.files) lastWith.set(file, i)
      const dependsOn = k === 0 ? [] : [...new Set([ids[members[k - 1]!]!, ...waits.map((b) => ids[b]!)])]
      items[i] = item(i, { group, position: k + 1, depends_on: dependsOn, reason: reason + waitingNote(i) })
    })
  }
  return items
}

/**
 * `sorted` (in queue order) with every issue after the queued issues it waits for: each issue in turn, its
 * blockers placed first (a blocker goes as early as the most urgent issue waiting for it). Issues that wait for
 * one another in a cycle (text references can make one) are all placed: the cycle is cut where it was entered.
 */
function blockersFirst(sorted: QueueCandidate[]): QueueCandidate[] {
  const rank = new Map(sorted.map((c, i) => [c.number, i]))
  const waits = (c: QueueCandidate) => (c.waitsFor ?? []).flatMap((b) => (rank.has(b.number) && b.number !== c.number ? [rank.get(b.number)!] : []))
  if (!sorted.some((c) => waits(c).length)) return sorted
  const placed = new Set<number>()
  const visiting = new Set<number>()
  const out: QueueCandidate[] = []
  const place = (i: number) => {
    if (placed.has(i) || visiting.has(i)) return
    visiting.add(i)
    for (const blocker of waits(sorted[i]!).sort((a, b) => a - b)) place(blocker)
    placed.add(i)
    out.push(sorted[i]!)
  }
  sorted.forEach((_, i) => place(i))
  return out
}

function blockerList(blockers: readonly Blocker[]): string {
  return blockers.map((b) => `#${b.number} (${b.status})`).join(', ')
}

/** Why `first` goes before `second` in the queue. */
function orderWhy(first: QueueCandidate, second: QueueCandidate, firstId: string): string {
  if (second.waitsFor?.some((b) => b.number === first.number)) return `#${second.number} waits for #${first.number}`
  if (hasStarted(first.status) && !hasStarted(second.status)) return `${firstId} is already ${first.status}`
  if (first.priority !== second.priority) return `priority ${first.priority} before ${second.priority}${first.prioritySource === 'label' || second.prioritySource === 'label' ? '' : ' (most urgent task)'}`
  return `same priority ${first.priority}: #${first.number} before #${second.number}`
}

function fileList(files: readonly string[], max = 3): string {
  const shown = files.slice(0, max).join(', ')
  return files.length > max ? `${shown} and ${files.length - max} more` : shown
}

function intersect(a: readonly string[], b: readonly string[]): string[] {
  const set = new Set(a)
  return b.filter((f) => set.has(f))
}

/** Files changed by two or more of the lists, sorted. */
function sharedFiles(lists: ReadonlyArray<readonly string[]>): string[] {
  const seen = new Set<string>()
  const shared = new Set<string>()
  for (const files of lists) for (const f of files) (seen.has(f) ? shared : seen).add(f)
  return [...shared].sort()
}

/** The queue item status for an issue status (seed: pending | executing | completed | failed). */
export function itemStatusOf(status: IssueStatus): QueueItem['status'] {
  if (hasStarted(status)) return 'executing'
  if (status === 'completed' || status === 'failed') return status
  return 'pending'
}

/**
 * The groups of a stored queue, the parallel group first, then the sequential ones in order; items
 * without a group (a queue written before groups existed) form a group `?` of their own.
 */
export function queueGroups(items: readonly QueueItem[]): QueueGroup[] {
  const groups = new Map<string, QueueItem[]>()
  for (const item of items) {
    const id = item.group ?? '?'
    const list = groups.get(id)
    if (list) list.push(item)
    else groups.set(id, [item])
  }
  const order = (id: string) => (id === '?' ? Number.MAX_SAFE_INTEGER : Number(id.slice(1)))
  return [...groups.entries()]
    .sort(([a], [b]) => order(a) - order(b))
    .map(([id, list]) => {
      const ordered = [...list].sort((a, b) => (a.position ?? itemNumber(a)) - (b.position ?? itemNumber(b)))
      const kind = id.startsWith('S') ? 'sequential' : 'parallel'
      return { id, kind, items: ordered, sharedFiles: kind === 'sequential' ? sharedFiles(ordered.map((i) => i.files ?? [])) : [] }
    })
}

export function itemNumber(item: Pick<QueueItem, 'item_id'>): number {
  return Number(item.item_id.slice(2))
}
