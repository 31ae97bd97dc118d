/**
 * CI's architecture checks over `src/` (`docs/architecture.md`):
 * - `lengths`: prints the ten longest files and fails when one is over {@link MAX_FILE_LINES} lines;
 * - `layers`: reads every import (TypeScript's own pre-parser, dynamic `import()` included) and fails when one goes
 *   against the layer list of `scripts/architecture/layers.ts`.
 * - `seams`: fails when a host builds a run's options outside its one mapping function, when the work branch's
 *   name is spelled in more than one file, or when a `client.rest` call is outside `src/github/`;
 * - `copies`: fails on a block of six or more lines that appears twice in `src/` (compared line by line, without
 *   indentation, blank lines and comments).
 * - `returns`: fails when an async function returns a promise un-awaited from a `try` block (`architecture/try-returns.ts`).
 * Without an argument, all of them.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, posix, relative } from 'node:path'
import ts from 'typescript'
import { LAYERS } from './architecture/layers.js'
import { unawaitedTryReturns } from './architecture/try-returns.js'
import { copiedBlocks, directoryOf, layerViolations, longestFiles, MAX_FILE_LINES, seamViolations, type Import, type SourceFile } from './architecture/rules.js'

const SRC = join(import.meta.dirname, '..', 'src')

/** Every `.ts` file of `src/`, as a path relative to it. */
function sourceFiles(): string[] {
  return readdirSync(SRC, { recursive: true, encoding: 'utf8' })
    .filter((path) => path.endsWith('.ts'))
    .map((path) => path.split('\\').join('/'))
    .sort()
}

/** Lines as `wc -l` counts them, and a last line without its newline. */
const lineCount = (text: string) => text.split('\n').length - (text.endsWith('\n') || text === '' ? 1 : 0)

function checkLengths(files: readonly string[]): boolean {
  const lengths = files.map((path) => ({ path, lines: lineCount(readFileSync(join(SRC, path), 'utf8')) }))
  const over = lengths.filter((f) => f.lines > MAX_FILE_LINES)
  console.log(`The ten longest of ${files.length} files in src/ (at most ${MAX_FILE_LINES} lines each):`)
  for (const { path, lines } of longestFiles(lengths, 10)) console.log(`${String(lines).padStart(6)}  src/${path}${lines > MAX_FILE_LINES ? '  ← over' : ''}`)
  if (over.length) console.log(`${over.length} file${over.length === 1 ? ' is' : 's are'} over ${MAX_FILE_LINES} lines: split ${over.length === 1 ? 'it' : 'them'} by job.`)
  return over.length === 0
}

/** The imports between files of `src/` (packages and Node's modules are left out). */
function importsOf(files: readonly string[]): Import[] {
  const imports: Import[] = []
  for (const from of files) {
    const { importedFiles } = ts.preProcessFile(readFileSync(join(SRC, from), 'utf8'), true, true)
    for (const { fileName } of importedFiles) {
      if (!fileName.startsWith('.')) continue
      const to = posix.normalize(posix.join(posix.dirname(from), fileName)).replace(/\.js$/, '.ts')
      imports.push({ from, to })
    }
  }
  return imports
}

function checkLayers(files: readonly string[]): boolean {
  const imports = importsOf(files)
  const violations = layerViolations(imports, LAYERS)
  const across = imports.filter((i) => directoryOf(i.from) !== directoryOf(i.to)).length
  console.log(`Layers of src/, lowest first (${relative(process.cwd(), join(import.meta.dirname, 'architecture', 'layers.ts'))}):`)
  LAYERS.forEach((layer, i) => console.log(`${String(i + 1).padStart(3)}. ${layer.name}: ${layer.dirs.map((d) => (d === '.' ? 'src/*.ts' : `${d}/`)).join(', ')}`))
  for (const violation of violations) console.log(`✗ ${violation}`)
  console.log(violations.length
    ? `${violations.length} import${violations.length === 1 ? '' : 's'} against the layers.`
    : `${imports.length} imports in ${files.length} files (${across} between directories): each one goes to its own directory or a lower layer.`)
  return violations.length === 0
}

const read = (files: readonly string[]): SourceFile[] => files.map((path) => ({ path, text: readFileSync(join(SRC, path), 'utf8') }))

function checkSeams(files: readonly string[]): boolean {
  const problems = seamViolations(read(files))
  for (const problem of problems) console.log(`✗ ${problem}`)
  console.log(problems.length ? `${problems.length} seam${problems.length === 1 ? '' : 's'} broken.` : 'Run options are built in the hosts\' mapping functions only, the work branch is named in one file, every REST call is in src/github/.')
  return problems.length === 0
}

function checkCopies(files: readonly string[]): boolean {
  const copies = copiedBlocks(read(files))
  for (const copy of copies) console.log(`✗ ${copy}`)
  console.log(copies.length ? `${copies.length} copied block${copies.length === 1 ? '' : 's'} in src/.` : `No block of six or more lines appears twice in the ${files.length} files of src/.`)
  return copies.length === 0
}

function checkTryReturns(files: readonly string[]): boolean {
  const config = ts.getParsedCommandLineOfConfigFile(join(SRC, '..', 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} })
  if (!config) throw new Error('tsconfig.json could not be read')
  const program = ts.createProgram(files.map((path) => join(SRC, path)), config.options)
  const found = unawaitedTryReturns(program, files.map((path) => program.getSourceFile(join(SRC, path))!))
  for (const line of found) console.log(`✗ ${relative(process.cwd(), line)}`)
  console.log(found.length ? `${found.length} promise${found.length === 1 ? '' : 's'} returned un-awaited from a try block: \`return await\` it.` : `No async function in the ${files.length} files of src/ returns a promise un-awaited from a try block.`)
  return found.length === 0
}

const CHECKS: Record<string, (files: readonly string[]) => boolean> = { lengths: checkLengths, layers: checkLayers, seams: checkSeams, copies: checkCopies, returns: checkTryReturns }
const which = process.argv[2]
if (which !== undefined && !(which in CHECKS)) {
  console.error(`usage: ${relative(process.cwd(), dirname(import.meta.filename))}/check-architecture.ts [${Object.keys(CHECKS).join('|')}]`)
  process.exit(2)
}
const files = sourceFiles()
const results = Object.entries(CHECKS).filter(([name]) => which === undefined || which === name).map(([, check]) => check(files))
process.exit(results.every(Boolean) ? 0 : 1)
