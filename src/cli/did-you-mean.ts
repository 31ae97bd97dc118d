/** The candidate closest to `word` (at most two edits away, or one it begins), for "did you mean …?". */
export function didYouMean(word: string, candidates: readonly string[]): string | undefined {
  let best: { candidate: string; distance: number } | undefined
  for (const candidate of candidates) {
    const distance = candidate.startsWith(word) && word.length >= 3 ? 0.5 : editDistance(word, candidate)
    if (distance <= 2 && (!best || distance < best.distance)) best = { candidate, distance }
  }
  return best?.candidate
}

/** Levenshtein distance. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const current = [i]
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1))
    }
    previous = current
  }
  return previous[b.length]!
}
