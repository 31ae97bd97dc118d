/**
 * The check side of a task's change (SPEC §7 "Evidence integrity"): the files its checks read that the executor
 * could bend to pass them — tests by the conventions of the common ecosystems, the test runner's and the build's
 * configuration, the scripts a command runs, a manifest's `scripts`, shims and ignored configuration. Everything
 * else the task changed is its code side. The rule and its limits: docs/evidence.md.
 */

/** Directories that hold tests, fixtures and snapshots in the common ecosystems. */
const TEST_DIRECTORY = /(?:^|\/)(?:tests?|__tests__|specs?|__mocks__|__snapshots__|__fixtures__|fixtures|testdata|test-?data|e2e|cypress|src\/test)\//i

/** Test files by name: JS/TS, Python, Go, Ruby, Java/Kotlin/C#, Rust's tests, snapshots. */
const TEST_FILE = [
  /\.(?:test|spec|e2e)\.[cm]?[jt]sx?$/i,
  /(?:^|\/)test_[^/]+\.py$/i,
  /_test\.(?:py|go|rb|exs?|dart|cc|cpp|c)$/i,
  /_spec\.rb$/i,
  /(?:^|\/)conftest\.py$/i,
  /(?:Tests?|Spec|IT)\.(?:java|kt|scala|cs|swift|php)$/,
  /\.snap$/i,
]

/** Test runners', coverage tools' and builds' configuration files. */
const RUNNER_CONFIG = [
  /(?:^|\/)(?:jest|vitest|vitest\.workspace|vite|karma|ava|playwright|cypress|wdio|nightwatch|babel|webpack|rollup|esbuild)\.config\.[cm]?[jt]s(?:on)?$/i,
  /(?:^|\/)\.(?:mocharc|babelrc|nycrc|c8rc|jestrc|swcrc)(?:\.[a-z]+)?$/i,
  /(?:^|\/)(?:pytest\.ini|tox\.ini|setup\.cfg|pyproject\.toml|noxfile\.py|\.coveragerc|phpunit\.xml(?:\.dist)?|\.rspec|Rakefile|Gemfile)$/,
  /(?:^|\/)(?:GNUmakefile|[Mm]akefile|justfile|Justfile|Taskfile\.ya?ml|\.bazelrc|BUILD(?:\.bazel)?|build\.gradle(?:\.kts)?|pom\.xml|CMakeLists\.txt)$/,
  /(?:^|\/)tsconfig(?:\.[^/]+)?\.json$/i,
]

/** Files that steer the package manager or the environment the commands see: a registry, a shim, a variable. */
const ENVIRONMENT_CONFIG = /(?:^|\/)(?:\.npmrc|\.yarnrc(?:\.yml)?|\.pnpmfile\.cjs|\.env(?:\.[^/]*)?|\.envrc|\.nvmrc|\.node-version|\.tool-versions|\.python-version|\.pth)$/

/** The manifest fields that decide what a check command runs. */
export const MANIFEST_CHECK_FIELDS = ['scripts', 'jest', 'mocha', 'ava', 'c8', 'nyc', 'vitest', 'bin'] as const

/** What the classification needs to know about one changed file. */
export interface ChangedFileFacts {
  path: string
  /** Ignored by git (in no commit): a dependency folder's shim, a local config. */
  ignored: boolean
  /** For `package.json`: whether a field of {@link MANIFEST_CHECK_FIELDS} differs between before and after. */
  manifestChecksChanged?: boolean
}

/**
 * Why a changed file is on the check side ("a test file", "package.json's scripts", …), or undefined for the code
 * side. `scriptPaths` are the files the task's commands run (see {@link scriptPathsOf}).
 */
export function checkSideRole(file: ChangedFileFacts, scriptPaths: ReadonlySet<string>): string | undefined {
  const path = file.path
  if (file.ignored) return /(?:^|\/)node_modules\/\.bin\//.test(path) ? 'a shim of a command (ignored by git)' : 'an ignored file (in no commit)'
  if (/(?:^|\/)package\.json$/.test(path)) return file.manifestChecksChanged ? `${path}'s scripts` : undefined
  if (ENVIRONMENT_CONFIG.test(path)) return 'the environment of the commands'
  if (RUNNER_CONFIG.some((pattern) => pattern.test(path))) return "the test runner's or the build's configuration"
  if (TEST_FILE.some((pattern) => pattern.test(path)) || TEST_DIRECTORY.test(path)) return 'a test file'
  if ([...scriptPaths].some((script) => path === script || path.startsWith(`${script}/`))) return 'a script the check runs'
  return undefined
}

/** Programs that run the file named after their options: `sh scripts/check.sh`, `node tools/run.js`. */
const INTERPRETERS = new Set(['sh', 'bash', 'zsh', 'dash', 'node', 'deno', 'bun', 'tsx', 'ts-node', 'python', 'python3', 'ruby', 'perl', 'php', 'pwsh'])
/** Words that run the command after them. */
const WRAPPERS = new Set(['exec', 'env', 'time', 'npx', 'nice', 'xvfb-run', 'command'])

/**
 * The repository files a command line runs: the program of each of its commands when it is a path (`./check`,
 * `scripts/verify`), or the file an interpreter runs (`sh scripts/check.sh`, `node tools/run.js`); the same inside a
 * manifest's scripts (`npm test` runs `scripts.test`). A path inside a quoted argument (an inline script's import)
 * is what the check tests, not what it runs. Paths are relative to the repository root, without `./`.
 */
export function scriptPathsOf(commands: readonly string[], manifestScripts: Readonly<Record<string, string>> = {}): Set<string> {
  const paths = new Set<string>()
  for (const line of [...commands, ...Object.values(manifestScripts)]) {
    for (const segment of line.split(/&&|\|\||[;|\n]/)) {
      const words = shellWords(segment).filter((w) => w.quoted || !/^[A-Za-z_][A-Za-z0-9_]*=/.test(w.text))
      let i = 0
      while (i < words.length && !words[i]!.quoted && (WRAPPERS.has(words[i]!.text) || words[i]!.text.startsWith('--no-'))) i++
      const program = words[i]
      if (!program || program.quoted) continue
      if (INTERPRETERS.has(program.text.split('/').at(-1)!)) {
        const script = words.slice(i + 1).find((w) => !w.text.startsWith('-'))
        // `node -e "…"` runs no file: an option that takes the script text comes first.
        if (script && !script.quoted && !words.slice(i + 1, words.indexOf(script)).some((w) => /^-(?:e|c|-eval|-command|p)$/.test(w.text))) addPath(paths, script.text)
      } else if (program.text.includes('/')) addPath(paths, program.text)
    }
  }
  return paths
}

function addPath(paths: Set<string>, token: string): void {
  const path = token.replace(/^\.\//, '').replace(/\/+$/, '')
  if (!path || path.startsWith('/') || path.startsWith('-') || path.includes('..') || path.startsWith('node_modules/') || /^[a-z][\w+.-]*:\/\//i.test(path)) return
  paths.add(path)
}

/** The words of one shell command: whitespace-separated, a quoted string one word (marked as quoted). */
function shellWords(segment: string): Array<{ text: string; quoted: boolean }> {
  return [...segment.matchAll(/"((?:[^"\\]|\\.)*)"|'([^']*)'|(\S+)/g)].map((m) => (m[3] !== undefined ? { text: m[3], quoted: false } : { text: m[1] ?? m[2] ?? '', quoted: true }))
}

/** Whether two manifests differ in a field that decides what a check command runs. */
export function manifestChecksDiffer(before: string | undefined, after: string | undefined): boolean {
  const fields = (text: string | undefined): string => {
    if (text === undefined) return ''
    try {
      const parsed = JSON.parse(text) as Record<string, unknown>
      return JSON.stringify(MANIFEST_CHECK_FIELDS.map((field) => parsed[field] ?? null))
    } catch {
      return `unparsable:${text}` // a manifest the task broke is a change to what runs
    }
  }
  return fields(before) !== fields(after)
}
