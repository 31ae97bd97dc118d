/** The rules of `scripts/check-architecture.ts`, pure so that a test can hold them to a made-up repository. */
import type { Layer } from './layers.js'

/** Longer files fail the check: past this, a file has more than one job. */
export const MAX_FILE_LINES = 400

export interface FileLength {
  path: string
  lines: number
}

/** The `count` longest files, longest first (ties by path). */
export function longestFiles(files: readonly FileLength[], count: number): FileLength[] {
  return [...files].sort((a, b) => b.lines - a.lines || a.path.localeCompare(b.path)).slice(0, count)
}

/** One import, both ends as paths relative to `src/` (`execute/task-loop.ts`). */
export interface Import {
  from: string
  to: string
}

/** The directory under `src/` that decides a file's layer: its first one, or `.` for a file directly in `src/`. */
export function directoryOf(path: string): string {
  const slash = path.indexOf('/')
  return slash < 0 ? '.' : path.slice(0, slash)
}

/**
 * What breaks the layering, one sentence each: an import from a lower layer to a higher one, between two
 * directories of one layer, or from or to a directory the layer list does not name.
 */
export function layerViolations(imports: readonly Import[], layers: readonly Layer[]): string[] {
  const layerOf = new Map(layers.flatMap((layer, rank) => layer.dirs.map((dir) => [dir, { layer, rank }] as const)))
  const problems = new Set<string>()
  for (const { from, to } of imports) {
    const fromDir = directoryOf(from)
    const toDir = directoryOf(to)
    if (fromDir === toDir) continue
    const a = layerOf.get(fromDir)
    const b = layerOf.get(toDir)
    if (!a || !b) {
      for (const dir of [fromDir, toDir]) if (!layerOf.has(dir)) problems.add(`src/${dir}/ is in no layer: add it to scripts/architecture/layers.ts`)
      continue
    }
    if (a.rank > b.rank) continue
    const why = a.rank === b.rank
      ? `${fromDir}/ and ${toDir}/ are both in layer ${a.layer.name}: neither imports the other`
      : `${fromDir}/ (layer ${a.layer.name}) may not import ${toDir}/ (layer ${b.layer.name}, above it)`
    problems.add(`src/${from} imports src/${to}: ${why}`)
  }
  return [...problems]
}
