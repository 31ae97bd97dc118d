import { stem } from './follow-ups.js'
import { filePath } from './phrases.js'

/**
 * Work that names the module or the code another piece of work makes comes after it: "send the queued edits"
 * after the task on `src/sync/queue.ts`, "call `cancelBooking` from the route" after the task that writes
 * `cancelBooking`. A module is named by its file's name (at least four letters, not a generic one such as
 * `index` or `utils`, and not a name of the mentioning work's own files).
 */

/** What a piece of work makes that later work may name: its files and the identifiers in its code spans. */
export interface Made {
  files: readonly string[]
  /** The text whose code spans (`` `cancelBooking()` ``) name identifiers; paths among them are files, not identifiers. */
  text: string
}

export function namesWork(text: string, earlier: Made, ownFiles: readonly string[]): boolean {
  const own = new Set(ownFiles.map(stem))
  const modules = earlier.files.map(stem).filter((s) => s.length >= 4 && !own.has(s) && !GENERIC.has(s))
  const identifiers = [...earlier.text.matchAll(/`([^`]+)`/g)]
    .map((m) => m[1]!.trim())
    .filter((c) => /^[A-Za-z_]\w{3,}(?:\(.*\))?$/.test(c) && !filePath(c) && !GENERIC.has(c.toLowerCase()))
    .map((c) => c.replace(/\(.*$/, '').toLowerCase())
  const lower = text.toLowerCase()
  return modules.some((s) => new RegExp(`(?<![\\p{L}])${escape(s)}`, 'u').test(lower)) || identifiers.some((id) => lower.includes(id))
}

interface Ordered {
  id: string
  title: string
  description: string
  files: readonly { path: string }[]
  dependencies: string[]
}

/** Adds, to each task that states no order, an edge to every earlier task whose module or code it names; returns them (`T2 → T1`). */
export function orderByMention(tasks: Ordered[]): string[] {
  const added: string[] = []
  tasks.forEach((task, i) => {
    if (task.dependencies.length) return
    const own = task.files.map((f) => f.path)
    for (const earlier of tasks.slice(0, i)) {
      const made = { files: earlier.files.map((f) => f.path), text: `${earlier.title} ${earlier.description}` }
      if (!namesWork(`${task.title} ${task.description}`, made, own)) continue
      task.dependencies.push(earlier.id)
      added.push(`${task.id} → ${earlier.id}`)
    }
  })
  return added
}

/** Module names too common to say which work is meant. */
const GENERIC = new Set(['index', 'main', 'utils', 'util', 'types', 'helpers', 'config', 'common', 'test', 'tests', 'readme', 'changelog', 'package'])

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}
