/**
 * Size policy. GitHub refuses a comment over 65,536 characters and a check-run summary over 65,535, so
 * a report is rendered at the most detailed level that fits. Levels give up detail in this order:
 *
 * 1. output tails shortened (40 → 10 → 3 lines per command);
 * 2. finished tasks (converged, skipped) collapsed to their one table row;
 * 3. the Mermaid task graph left out;
 * 4. output tails left out, and details kept only for failed and running tasks;
 * 5. finished tasks left out of the task table (counted in one line);
 * 6. at most 5 task details and 100 table rows, then none and 20.
 *
 * Every level says what it left out (see `cutsNotice`). Should even the last level not fit (thousands of
 * failed tasks), the text is cut at a line boundary with open code blocks and `<details>` closed.
 */

export const GITHUB_COMMENT_LIMIT = 65_536
export const CHECK_RUN_TEXT_LIMIT = 65_535

export interface Compaction {
  /** Lines of command output shown per command in the task details; 0 shows none. */
  tailLines: number
  /** Which tasks get a details section: every task, all but finished ones, or only failed and running ones. */
  details: 'all' | 'unfinished' | 'active'
  maxDetails: number
  graph: boolean
  /** Task table rows: every task, or all but finished ones. */
  rows: 'all' | 'unfinished'
  maxRows: number
}

const FULL: Compaction = { tailLines: 40, details: 'all', maxDetails: Infinity, graph: true, rows: 'all', maxRows: Infinity }

export const COMPACTIONS: readonly Compaction[] = (() => {
  const levels = [FULL]
  const step = (change: Partial<Compaction>) => levels.push({ ...levels.at(-1)!, ...change })
  step({ tailLines: 10 })
  step({ tailLines: 3 })
  step({ details: 'unfinished' })
  step({ graph: false })
  step({ tailLines: 0, details: 'active' })
  step({ rows: 'unfinished' })
  step({ maxDetails: 5, maxRows: 100 })
  step({ maxDetails: 0, maxRows: 20 })
  return levels
})()

/** The first level whose rendering fits in `limit` characters; past the last level, that rendering cut to fit. */
export function fitToLimit(render: (level: Compaction) => string, limit: number, cutNotice: string): string {
  let text = ''
  for (const level of COMPACTIONS) {
    text = render(level)
    if (text.length <= limit) return text
  }
  return cutToFit(text, limit, cutNotice)
}

/**
 * `text` cut at a line boundary so that, with the code fence and `<details>` left open closed again and
 * `notice` appended, it is at most `limit` characters long.
 */
export function cutToFit(text: string, limit: number, notice: string): string {
  const tail = `\n\n${notice}\n`
  let room = limit - tail.length
  for (;;) {
    const cut = text.slice(0, Math.max(0, room))
    const kept = cut.slice(0, Math.max(0, cut.lastIndexOf('\n')))
    const result = `${kept}${closing(kept)}${tail}`
    if (result.length <= limit || room <= 0) return result.length <= limit ? result : notice.slice(0, limit)
    room -= result.length - limit
  }
}

/** What closes the fenced code block and the `<details>` that `text` leaves open. */
function closing(text: string): string {
  let fence: string | undefined
  let depth = 0
  for (const line of text.split('\n')) {
    const marker = /^(`{3,})/.exec(line)?.[1]
    if (fence) {
      if (marker && marker.length >= fence.length && /^`+\s*$/.test(line)) fence = undefined
    } else if (marker) {
      fence = marker
    } else {
      depth += (line.match(/<details[\s>]/g) ?? []).length - (line.match(/<\/details>/g) ?? []).length
    }
  }
  return `${fence ? `\n${fence}` : ''}${'\n\n</details>'.repeat(Math.max(0, depth))}`
}
