import { isTestFile } from './follow-ups.js'

/**
 * Work listed across the layers of an application goes down to up: the storage a change needs (a migration, a
 * schema) before the code that reads and writes it (a repository, a model), that before the code that uses it, that
 * code before the screen that shows it, and the document last. A task
 * of a list that states no order of its own follows the last earlier task of a lower layer (so a list written
 * storage → service → screen → docs becomes a chain, and a list of one layer stays unordered).
 */

const STORAGE = /(?:^|\/)(?:migrations?|db|database|schema|models?|prisma)\/|\.(?:sql|prisma)$|(?:^|\/)schema\.\w+$/i
/** Code that reads and writes the storage for the rest: a repository, a data-access object, a model or entity. */
const DATA_ACCESS = /(?:^|[/_.-])(?:repo|repos|repository|repositories|dao|daos|models?|entit(?:y|ies))(?:[/_.-]|$)/i
const SCREEN = /(?:^|\/)(?:web|ui|components?|pages|views|frontend|client|screens?|templates)\/|\.(?:tsx|jsx|vue|svelte|html?|css|scss)$/i
const DOCUMENT = /\.(?:md|mdx|rst|adoc)$|^docs?\//i

/** 0 storage, 0.5 data access, 1 code, 2 screen, 3 document; undefined for a test, which is ordered by what it tests. */
export function layerOf(path: string): number | undefined {
  if (isTestFile(path)) return undefined
  if (DOCUMENT.test(path)) return 3
  if (STORAGE.test(path)) return 0
  if (SCREEN.test(path)) return 2
  return DATA_ACCESS.test(path) ? 0.5 : 1
}

interface Layered {
  id: string
  title: string
  files: readonly { path: string }[]
  dependencies: string[]
}

/** A task labelled with its part of the application ("[Backend] …", "Frontend: …", "Banco de dados -"): that part's layer. */
const LABELS: ReadonlyArray<readonly [number, RegExp]> = [
  [0, /^(?:database|db|migrations?|schema|storage|banco de dados|base de datos|datenbank|数据库|データベース)$/i],
  [1, /^(?:backend|back-end|server|api|servidor|サーバー?|后端|バックエンド)$/i],
  [2, /^(?:frontend|front-end|ui|client|web|interface|tela|pantalla|前端|フロントエンド|画面)$/i],
  [3, /^(?:docs?|documentation|documenta[çc][ãa]o|documentaci[óo]n|文档|ドキュメント)$/i],
]
const LEADING_LABEL = /^\s*(?:\[([^\]]{1,20})\]|([\p{L} -]{2,20}?)\s*[:：—–-]\s)/u

function labelLayer(title: string): number | undefined {
  const match = LEADING_LABEL.exec(title)
  const label = (match?.[1] ?? match?.[2])?.trim()
  return label ? LABELS.find(([, pattern]) => pattern.test(label))?.[0] : undefined
}

/** A task's layer when all its files share one (else its label's); undefined for a test, or files in several layers. */
function taskLayer(task: Layered): number | undefined {
  if (!task.files.length) return labelLayer(task.title)
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
