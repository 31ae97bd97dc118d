/**
 * A real public library with its real test runner, as a user's repository: bytes.js 3.1.2 and mocha 9.2.0
 * (`tests/fixtures/projects/bytes/PROVENANCE.md`). mocha comes from the npm registry, installed once into
 * `.cache/real-projects/` and copied into each repository as its `node_modules` (ignored by git, as in any project).
 *
 * The repository starts with the maintainers' fix of un-parsable strings taken out of `index.js`: `bytes('foobar')`
 * returns NaN, and the maintainers' test of it (`test/bytes.js`, `test/byte-parse.js`) fails.
 */
import { execFile } from 'node:child_process'
import { cp, mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises'
import { existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { runGit } from '../../src/git/git.js'

const run = promisify(execFile)
const FIXTURE = fileURLToPath(new URL('../fixtures/projects/bytes', import.meta.url))
const CACHE = process.env.CONVERGE_REAL_PROJECTS_DIR ?? fileURLToPath(new URL('../../.cache/real-projects', import.meta.url))

/** The maintainers' fix, as it stands in `index.js` at 3.1.2. */
export const MAINTAINERS_FIX = '  if (isNaN(floatValue)) {\n    return null;\n  }\n\n'
/** The maintainers' assertions of the fix, one in each of these test files. */
export const MAINTAINERS_ASSERTIONS: Record<string, string> = {
  'test/bytes.js': "    assert.strictEqual(bytes('foobar'), null);\n",
  'test/byte-parse.js': "    assert.strictEqual(bytes.parse('foobar'), null);\n",
}

/** The folder holding `node_modules` with mocha installed (installed on first use). */
export async function realProjectModules(): Promise<string> {
  const manifest = await readFile(join(FIXTURE, 'package.json'), 'utf8')
  const dir = join(CACHE, 'bytes-mocha-9.2.0')
  if (existsSync(join(dir, 'node_modules', 'mocha', 'package.json'))) return dir
  await mkdir(CACHE, { recursive: true })
  const staging = await mkdtemp(join(CACHE, 'install-'))
  await writeFile(join(staging, 'package.json'), manifest)
  await run('npm', ['install', '--no-audit', '--no-fund', '--no-package-lock', '--loglevel=error'], { cwd: staging, timeout: 180_000 })
  // Two test files may install at once: the first rename wins, the other's copy is dropped.
  await rename(staging, dir).catch(() => rm(staging, { recursive: true, force: true }))
  return dir
}

export interface RealProject {
  dir: string
  /** The commit the repository starts at (the bug in, its tests as chosen). */
  start: string
  dispose(): Promise<void>
}

/**
 * A git repository of bytes.js with the bug in and mocha in `node_modules`. `tests: 'maintainers'` keeps the
 * maintainers' test of the fix (it fails); `'none'` takes it out too, so a task must write a test of its own.
 */
export async function bytesRepository(options: { tests: 'maintainers' | 'none' }): Promise<RealProject> {
  const modules = await realProjectModules()
  const dir = await mkdtemp(join(tmpdir(), 'converge-bytes-'))
  await cp(FIXTURE, dir, { recursive: true, filter: (source) => !source.endsWith('PROVENANCE.md') })
  await edit(join(dir, 'index.js'), MAINTAINERS_FIX, '')
  if (options.tests === 'none') for (const [file, line] of Object.entries(MAINTAINERS_ASSERTIONS)) await edit(join(dir, file), line, '')
  await writeFile(join(dir, '.gitignore'), 'node_modules/\n')
  const git = (...args: string[]) => runGit(args, { cwd: dir })
  await git('init', '--quiet', '--initial-branch=master')
  await git('config', 'user.name', 'Maintainer')
  await git('config', 'user.email', 'maintainer@example.com')
  await git('add', '--all')
  await git('commit', '--quiet', '-m', 'bytes 3.1.2 without the fix of un-parsable strings')
  await cp(join(modules, 'node_modules'), join(dir, 'node_modules'), { recursive: true, verbatimSymlinks: true })
  const start = (await git('rev-parse', 'HEAD')).stdout.trim()
  return { dir, start, dispose: () => rm(dir, { recursive: true, force: true }) }
}

/** The repository's files as `bytesRepository` commits them, for a repository that lives elsewhere (the API emulator). */
export async function bytesFiles(options: { tests: 'maintainers' | 'none' }): Promise<Record<string, string>> {
  const files: Record<string, string> = { '.gitignore': 'node_modules/\n' }
  for (const path of ['LICENSE', 'package.json', 'index.js', 'test/bytes.js', 'test/byte-parse.js', 'test/byte-format.js']) files[path] = await readFile(join(FIXTURE, path), 'utf8')
  files['index.js'] = files['index.js']!.replace(MAINTAINERS_FIX, '')
  if (options.tests === 'none') for (const [file, line] of Object.entries(MAINTAINERS_ASSERTIONS)) files[file] = files[file]!.replace(line, '')
  return files
}

/** Installs mocha (as `bytesRepository` does) into `dir`'s `node_modules`. */
export async function installModules(dir: string): Promise<void> {
  await cp(join(await realProjectModules(), 'node_modules'), join(dir, 'node_modules'), { recursive: true, verbatimSymlinks: true })
}

/** Applies the maintainers' fix to `index.js` of a bytes.js checkout (what an honest executor does). */
export async function applyMaintainersFix(dir: string): Promise<void> {
  await edit(join(dir, 'index.js'), '  return Math.floor(map[unit] * floatValue);', `${MAINTAINERS_FIX}  return Math.floor(map[unit] * floatValue);`)
}

async function edit(path: string, from: string, to: string): Promise<void> {
  const text = await readFile(path, 'utf8')
  if (!text.includes(from)) throw new Error(`${path} does not contain ${JSON.stringify(from)}`)
  await writeFile(path, text.replace(from, to))
}
