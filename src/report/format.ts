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

/** `$0.0312 · 18,204 tokens · 9 turns`, each part only when the agent reported it; "not reported" when it reported none. */
export function formatUsage(usage: { input_tokens: number | null; output_tokens: number | null; turns: number | null; cost_usd: number | null }): string {
  const tokens = usage.input_tokens === null && usage.output_tokens === null ? null : (usage.input_tokens ?? 0) + (usage.output_tokens ?? 0)
  const parts = [
    usage.cost_usd === null ? undefined : `$${usage.cost_usd < 1 ? usage.cost_usd.toFixed(4) : usage.cost_usd.toFixed(2)}`,
    tokens === null ? undefined : `${tokens.toLocaleString('en-US')} tokens`,
    usage.turns === null ? undefined : `${usage.turns} turn${usage.turns === 1 ? '' : 's'}`,
  ].filter(Boolean)
  return parts.length ? parts.join(' · ') : 'not reported'
}
