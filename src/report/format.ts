/** Numbers as people read them in a report. */

/** `850 ms`, `12.3 s`, `4m 05s`, `1h 02m`. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`
  const seconds = Math.round(ms / 1000)
  if (seconds < 3600) return `${Math.floor(seconds / 60)}m ${pad2(seconds % 60)}s`
  const minutes = Math.round(seconds / 60)
  return `${Math.floor(minutes / 60)}h ${pad2(minutes % 60)}m`
}

/**
 * `▰▰▰▱▱`: one segment per task up to ten, then ten segments. A bar is full only when everything is
 * done and shows at least one segment as soon as anything is.
 */
export function progressBar(done: number, total: number): string {
  const width = Math.max(1, Math.min(total, 10))
  let filled = total > 0 ? Math.round((done / total) * width) : 0
  if (done > 0 && filled === 0) filled = 1
  if (done < total && filled === width) filled = width - 1
  return '▰'.repeat(filled) + '▱'.repeat(width - filled)
}

/** Milliseconds between two ISO timestamps, or undefined when either is missing or unreadable. */
export function elapsedMs(from: string | null | undefined, to: string | null | undefined): number | undefined {
  if (!from || !to) return undefined
  const ms = Date.parse(to) - Date.parse(from)
  return Number.isFinite(ms) && ms >= 0 ? ms : undefined
}

const pad2 = (n: number) => String(n).padStart(2, '0')
