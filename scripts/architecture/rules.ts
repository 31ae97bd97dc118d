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

/** A file of `src/` and its text. */
export interface SourceFile {
  path: string
  text: string
}

/** The text of a file without its comments, line numbers kept (a `//` inside a string may go too: good enough for a check). */
function code(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, (comment) => comment.replace(/[^\n]/g, '')).replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1')
}

/**
 * The hosts' mapping functions: the one place each host turns its inputs into a run (`pipeline/run-request.ts`).
 * Anywhere else in the hosts, a key only the pipeline's run options have means options assembled by hand.
 */
export const RUN_MAPPINGS = ['action/inputs.ts', 'cli/run-request.ts'] as const
const RUN_OPTION_KEY = /[{,]\s*(workRoot|executorCommand|committer|beforeTasks)\s*:/

/** What breaks the seams: run options built outside a host's mapping, the work branch spelled twice, REST outside `github/`. */
export function seamViolations(files: readonly SourceFile[]): string[] {
  const problems: string[] = []
  for (const { path, text } of files) {
    const host = directoryOf(path) === 'action' || directoryOf(path) === 'cli'
    const key = RUN_OPTION_KEY.exec(code(text))
    if (host && key && !(RUN_MAPPINGS as readonly string[]).includes(path))
      problems.push(`src/${path} builds a run's options by hand (\`${key[1]}:\`): map the host's inputs in ${RUN_MAPPINGS.map((p) => `src/${p}`).join(' or ')} and call runOf`)
    if (directoryOf(path) !== 'github' && /\bclient\.rest\b/.test(code(text)))
      problems.push(`src/${path} calls GitHub's REST API: every \`client.rest\` call lives in src/github/`)
  }
  const spelling = files.filter((f) => f.text.includes('converge/issue-')).map((f) => `src/${f.path}`)
  if (spelling.length > 1) problems.push(`the work branch's name \`converge/issue-\` is spelled in ${spelling.length} files (${spelling.join(', ')}): call workBranchName (model/state-layout.ts)`)
  return problems
}

/** Copied blocks this long or longer fail the check. */
export const MIN_COPY_LINES = 6

/**
 * Blocks of {@link MIN_COPY_LINES} or more lines that appear twice in `src/`, one sentence each. Lines are
 * compared without their indentation and the braces that open or close a block; blank lines, comments and lines of
 * brackets alone are left out, so a copy re-indented, re-braced or re-commented is still one. Overlapping windows of one copy are reported once.
 */
export function copiedBlocks(files: readonly SourceFile[]): string[] {
  const seen = new Map<string, { path: string; line: number }>()
  const hits: Array<{ first: { path: string; line: number }; again: { path: string; line: number } }> = []
  for (const { path, text } of files) {
    // Braces that open or close a block on a line of code are left out too: `for (…) {` and `for (…)` are one line.
    const lines = code(text).split('\n').map((content, i) => ({ content: content.trim().replace(/^[})\]]+\s*/, '').replace(/\s*\{$/, ''), line: i + 1 }))
      .filter((l) => l.content !== '' && !/^[\s{}()[\];,]*$/.test(l.content) && !/^import\b|^\} from\b/.test(l.content))
    for (let i = 0; i + MIN_COPY_LINES <= lines.length; i++) {
      const window = lines.slice(i, i + MIN_COPY_LINES)
      const key = window.map((l) => l.content).join('\n')
      const here = { path, line: window[0]!.line }
      const first = seen.get(key)
      if (first) hits.push({ first, again: here })
      else seen.set(key, here)
    }
  }
  // A copy longer than the window is many overlapping hits, one line apart: reported once, at its start.
  const reported: string[] = []
  let last: (typeof hits)[number] | undefined
  for (const hit of hits) {
    const continues = last && last.first.path === hit.first.path && last.again.path === hit.again.path && hit.again.line - last.again.line <= MIN_COPY_LINES
    if (!continues) reported.push(`src/${hit.again.path}:${hit.again.line} repeats src/${hit.first.path}:${hit.first.line} (${MIN_COPY_LINES} lines or more): share one`)
    last = hit
  }
  return reported
}
