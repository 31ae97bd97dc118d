import { editDistance } from '../plan/read.js'

/** The candidate closest to `word` (at most two edits away, or one it begins), for "did you mean …?". */
export function didYouMean(word: string, candidates: readonly string[]): string | undefined {
  let best: { candidate: string; distance: number } | undefined
  for (const candidate of candidates) {
    const distance = candidate.startsWith(word) && word.length >= 3 ? 0.5 : editDistance(word, candidate)
    if (distance <= 2 && (!best || distance < best.distance)) best = { candidate, distance }
  }
  return best?.candidate
}
