/**
 * Appends every line of `sections` to `out`, one by one: spread into `push()`, the lines of a plan with
 * 100 000 tasks would be 100 000 call arguments, past what the call stack holds.
 */
export function appendLines(out: string[], ...sections: ReadonlyArray<readonly string[]>): void {
  for (const lines of sections) for (const line of lines) out.push(line)
}

/** The smallest of `values` (Infinity when there is none), without spreading them into `Math.min`. */
export function smallest(values: readonly number[]): number {
  let least = Infinity
  for (const value of values) if (value < least) least = value
  return least
}

/** The largest of `values` (0 when there is none): counts and lengths. */
export function largest(values: readonly number[]): number {
  let most = 0
  for (const value of values) if (value > most) most = value
  return most
}
