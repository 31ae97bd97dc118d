import { isTestFile } from './follow-ups.js'

/**
 * Work listed across the layers of an application goes down to up: the storage a change needs (a migration, a
 * schema) before the code that uses it, that code before the screen that shows it, and the document last. A task
 * of a list that states no order of its own follows the last earlier task of a lower layer (so a list written
 * storage → service → screen → docs becomes a chain, and a list of one layer stays unordered).
 */

const STORAGE = /(?:^|\/)(?:migrations?|db|database|schema|models?|prisma)\/|\.(?:sql|prisma)$|(?:^|\/)schema\.\w+$/i
const SCREEN = /(?:^|\/)(?:web|ui|components?|pages|views|frontend|client|screens?|templates)\/|\.(?:tsx|jsx|vue|svelte|html?|css|scss)$/i
const DOCUMENT = /\.(?:md|mdx|rst|adoc)$|^docs?\//i

/** 0 storage, 1 code, 2 screen, 3 document; undefined for a test, which is ordered by what it tests. */
export function layerOf(path: string): number | undefined {
  if (isTestFile(path)) return undefined
  if (DOCUMENT.test(path)) return 3
  if (STORAGE.test(path)) return 0
  if (SCREEN.test(path)) return 2
  return 1
}

interface Layered {
  id: string
  files: readonly { path: string }[]
  dependencies: string[]
}

/** A task's layer when all its files share one; undefined for a task with no file, a test, or files in several layers. */
function taskLayer(task: Layered): number | undefined {
  const layers = new Set(task.files.map((f) => layerOf(f.path)))
  if (layers.size !== 1) return undefined
  return [...layers][0]
}

/** Adds each unordered task's edge to the last earlier task of a lower layer; returns the edges added, `T2 → T1`. */
export function orderByLayer(tasks: Layered[]): string[] {
  const added: string[] = []
  const layers = tasks.map(taskLayer)
  tasks.forEach((task, i) => {
    const layer = layers[i]
    if (layer === undefined || task.dependencies.length) return
    for (let j = i - 1; j >= 0; j--) {
      const below = layers[j]
      if (below === undefined || below >= layer) continue
      task.dependencies.push(tasks[j]!.id)
      added.push(`${task.id} → ${tasks[j]!.id}`)
      return
    }
  })
  return added
}
