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

/**
 * The repository files a command line runs or reads by path: `sh scripts/test.sh`, `./check`, `node test/run.js`,
 * `python tools/verify.py`; the same inside a manifest's scripts (`npm test` runs `scripts.test`). Paths are
 * relative to the repository root, without `./`.
 */
export function scriptPathsOf(commands: readonly string[], manifestScripts: Readonly<Record<string, string>> = {}): Set<string> {
  const lines = [...commands, ...Object.values(manifestScripts)]
  const paths = new Set<string>()
  for (const line of lines) {
    for (const token of line.split(/[\s;&|()<>'"`=]+/)) {
      const path = token.replace(/^\.\//, '')
      if (!path || path.startsWith('-') || path.startsWith('/') || path.includes('..') || /^[a-z][\w+.-]*:\/\//i.test(path)) continue
      if (path.includes('/') || /\.(?:sh|bash|[cm]?js|ts|py|rb|pl|php|ps1|mk)$/i.test(path)) paths.add(path.replace(/\/+$/, ''))
    }
  }
  return paths
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
