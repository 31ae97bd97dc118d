/**
 * Live progress of `verify`, `execute` and `execute-task`: a line when a task starts and one with its verdict; on a
 * terminal, under them, one status line per running task with the latest line its executor printed, redrawn in
 * place and gone when the task ends.
 */
import type { RunPlanOptions } from '../pipeline/run-plan.js'
import { stripAnsi } from '../report/ansi.js'
import { evidenceLabel, provedBy } from '../report/evidence-words.js'
import { formatDuration } from '../report/format.js'
import type { CliIo } from './io.js'

/** Redraws of the status lines at most this often: an executor may print thousands of lines a second. */
const REDRAW_MS = 100

export interface Progress extends Pick<RunPlanOptions, 'onTaskStart' | 'onProgress' | 'onOutput'> {
  /** The tasks that started and have no result yet (those a Ctrl-C interrupts). */
  running(): string[]
  /** Clears the status lines and stops the heartbeat (the run has ended). */
  close(): void
}

/** How often a running task is reported in output that is not a terminal (a CI log), where no status line shows. */
export const HEARTBEAT_MS = 30_000

/**
 * The progress callbacks of a run, written to `io`: on a terminal with status lines; otherwise (piped, in a CI log)
 * with a heartbeat line every `heartbeatMs` per running task, its elapsed time and its executor's last output line.
 */
export function progressLines(io: CliIo, heartbeatMs = HEARTBEAT_MS): Progress {
  const live = io.tty && io.write ? new StatusLines(io as StatusIo) : undefined
  const print = (text: string) => (live ? live.print(text) : io.out(text))
  const reported = new Set<string>()
  const running = new Map<string, { since: number; last: string }>()
  const heartbeat = live ? undefined : setInterval(() => {
    for (const [id, task] of running)
      print(`  … ${id} running for ${formatDuration(Date.now() - task.since)}${task.last ? `; last output: ${cut(task.last, 160)}` : ''}`)
  }, heartbeatMs).unref()
  return {
    onTaskStart: (task) => {
      live?.start(task.id)
      running.set(task.id, { since: Date.now(), last: '' })
      print(`  ▸ ${task.id} ${task.title}`)
    },
    onProgress: (record) => {
      for (const result of Object.values(record.tasks)) {
        if (reported.has(result.task_id) || result.status === 'skipped') continue
        reported.add(result.task_id)
        running.delete(result.task_id)
        live?.end(result.task_id)
        const retry = result.later_retry
        if (retry && (!result.executed_at || retry.at >= result.executed_at)) {
          print(`  ↺ ${result.task_id} kept its earlier result: its retry did not replace it (${retry.outcome.split('\n')[0]})`)
          continue
        }
        const verdict = result.status !== 'completed' ? `✗ ${result.task_id} failed`
          : !provedBy(result) ? `⚠ ${result.task_id} ${evidenceLabel(result.evidence!)}`
          : `✓ ${result.task_id} ${record.mode === 'verify' ? 'verified' : 'converged'}`
        const attempts = `${result.attempts} attempt${result.attempts === 1 ? '' : 's'}`
        print(`  ${verdict} (${attempts}, ${formatDuration(result.duration_ms)}${result.commit_hash ? `, ${result.commit_hash.slice(0, 7)}` : ''})`)
      }
    },
    onOutput: (taskId: string, line: string) => {
      const task = running.get(taskId)
      const text = plainLine(line)
      if (task && text) task.last = text
      live?.output(taskId, line)
    },
    running: () => [...running.keys()],
    close: () => {
      clearInterval(heartbeat)
      live?.close()
    },
  }
}

type StatusIo = CliIo & { write(text: string): void }

/** The block of status lines at the bottom of the terminal: one per running task, `  T2 │ <its executor's latest line>`. */
export class StatusLines {
  private readonly latest = new Map<string, string>()
  /** Lines of the block on the screen now. */
  private drawn = 0
  private timer: NodeJS.Timeout | undefined

  constructor(private readonly io: StatusIo) {}

  /** A line printed above the block, which is then drawn again under it. */
  print(text: string): void {
    this.erase()
    this.io.write(`${text}\n`)
    this.draw()
  }

  start(taskId: string): void {
    this.latest.set(taskId, '')
  }

  output(taskId: string, line: string): void {
    if (!this.latest.has(taskId)) return
    const text = plainLine(line)
    if (!text) return
    this.latest.set(taskId, text)
    this.timer ??= setTimeout(() => {
      this.timer = undefined
      this.erase()
      this.draw()
    }, REDRAW_MS).unref()
  }

  end(taskId: string): void {
    this.latest.delete(taskId)
  }

  close(): void {
    clearTimeout(this.timer)
    this.timer = undefined
    this.latest.clear()
    this.erase()
  }

  private erase(): void {
    // To the start of the block's first line, then clear to the end of the screen.
    if (this.drawn) this.io.write(`\u001b[${this.drawn}F\u001b[J`)
    this.drawn = 0
  }

  private draw(): void {
    const width = Math.max(20, (this.io.columns ?? 80) - 1)
    const lines = [...this.latest].filter(([, text]) => text).map(([id, text]) => cut(`    ${id} │ ${text}`, width))
    if (!lines.length) return
    this.io.write(lines.map((l) => `${this.io.colour ? `\u001b[2m${l}\u001b[0m` : l}\n`).join(''))
    this.drawn = lines.length
  }
}

/** An executor's output line as text: its colours and cursor movements would break the status block and the log. */
function plainLine(line: string): string {
  return stripAnsi(line).replace(/[\u0000-\u001f\u007f]/g, ' ').trim()
}

/** At most `width` characters (code points), with … when cut. */
function cut(text: string, width: number): string {
  const chars = [...text]
  return chars.length > width ? `${chars.slice(0, width - 1).join('')}…` : text
}
