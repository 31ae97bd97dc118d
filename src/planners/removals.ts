import { isDocFile, isTestFile, stem } from './follow-ups.js'

/**
 * A removal comes after the work that moves its readers off what it removes (issue 38: "a phase that removes an old
 * path depends on the phase that moves its readers"). A removal is a task that deletes, removes or drops something;
 * it waits for the other code changes when it says so ("Delete `legacyDate.ts` once nothing imports it"), else for
 * the earlier tasks that name what it removes (the file's name, `LegacyEditor`). A removal the list gives before the
 * work it waits for is moved after it, and the tasks are numbered again.
 */

interface Ordered {
  id: string
  title: string
  description: string
  labels: string[]
  files: readonly { path: string }[]
  dependencies: string[]
}

const REMOVAL = /^(?:delete|remove|drop|retire|get rid of|clean up)\b|^(?:删除|移除|去掉)|^(?:remover|excluir|apagar|eliminar|borrar|quitar|entferne|entfernen|l[öo]sche|l[öo]schen|supprimer|retirer|удалить|убрать)\b|(?:を削除|を廃止|삭제)/i
/** "once nothing imports it", "when no screen uses it any more", "once every caller has moved": it waits for its readers. */
const WAITS_FOR_READERS =
  /\b(?:once|when|after)\s+(?:nothing|no\s+\w+|none of \w+)\b.{0,40}\b(?:imports?|uses?|renders?|reads?|calls?|references?|needs?|depends on)\b|\b(?:once|when|after)\s+(?:all |every )?(?:the )?(?:callers?|readers?|users?|screens?|clients?|consumers?|modules?)\b.{0,30}\b(?:moved|migrated|switched|ported)\b/i

function isRemoval(task: Ordered): boolean {
  return REMOVAL.test(task.title.trim())
}

/** Whether `task` is code work a removal can wait for: not a removal, and not only tests or documents. */
function movesReaders(task: Ordered): boolean {
  return !isRemoval(task) && !(task.files.length && task.files.every((f) => isTestFile(f.path) || isDocFile(f.path) || /^changelog/i.test(f.path)))
}

/** Orders removals after the work they wait for, in place; returns the edges added (`T3 → T1`, in the final ids). */
export function orderRemovalsAfterMoves(tasks: Ordered[]): string[] {
  if (tasks.some((t) => t.labels.length)) return []
  const waits = new Map<Ordered, Ordered[]>()
  tasks.forEach((task, i) => {
    if (!isRemoval(task)) return
    const removed = task.files.map((f) => stem(f.path)).filter((s) => s.length >= 4)
    const named = (other: Ordered) => removed.some((s) => `${other.title} ${other.description}`.toLowerCase().includes(s))
    const before = WAITS_FOR_READERS.test(task.title) ? tasks.filter((t) => t !== task && movesReaders(t)) : tasks.slice(0, i).filter((t) => movesReaders(t) && named(t))
    if (before.length) waits.set(task, before)
  })
  if (!waits.size) return []
  // Move each waiting removal right after the last task it waits for, then number the tasks again.
  for (const [removal, before] of waits) {
    const last = Math.max(...before.map((t) => tasks.indexOf(t)))
    if (last > tasks.indexOf(removal)) tasks.splice(last, 0, ...tasks.splice(tasks.indexOf(removal), 1))
  }
  const renamed = new Map(tasks.map((t, i) => [t.id, `T${i + 1}`]))
  for (const task of tasks) {
    task.id = renamed.get(task.id)!
    task.dependencies = task.dependencies.map((d) => renamed.get(d) ?? d)
  }
  const added: string[] = []
  for (const [removal, before] of waits)
    for (const mover of before)
      if (!removal.dependencies.includes(mover.id)) {
        removal.dependencies.push(mover.id)
        added.push(`${removal.id} → ${mover.id}`)
      }
  return added
}
