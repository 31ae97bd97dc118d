/** Median wall time of `fn` over `runs` runs (after one warm-up run), in milliseconds. */
export function medianMs(fn: () => void, runs: number): number {
  fn()
  const times: number[] = []
  for (let i = 0; i < runs; i++) {
    const start = process.hrtime.bigint()
    fn()
    times.push(Number(process.hrtime.bigint() - start) / 1e6)
  }
  times.sort((a, b) => a - b)
  return times[Math.floor(times.length / 2)]!
}

export function table(header: string[], rows: Array<Array<string | number>>): string {
  const cells = [header, ...rows.map((r) => r.map(String))]
  const widths = header.map((_, c) => Math.max(...cells.map((r) => r[c]!.length)))
  const line = (r: string[]) => r.map((cell, c) => cell.padStart(widths[c]!)).join('  ')
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.slice(1).map(line)].join('\n')
}

export const fmt = (ms: number) => (ms >= 100 ? ms.toFixed(0) : ms >= 1 ? ms.toFixed(1) : ms.toFixed(3))
