/**
 * The cheats of an executor under pressure (tests/fixtures/executors/cheats.mjs) on a real project (bytes.js 3.1.2
 * with mocha, tests/support/real-project.ts), and the plans they run under: shared by the CLI and the action suites
 * of SPEC §7 "Evidence integrity".
 */
import { chmod, mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { runGit } from '../../../src/git/git.js'
import { bytesRepository, type RealProject } from '../../support/real-project.js'

export const CHEATS_EXECUTOR = fileURLToPath(new URL('../../fixtures/executors/cheats.mjs', import.meta.url))

/** Which checks a scenario's plan runs, and so which repository it starts from. */
export type Checks = 'maintainers-test' | 'new-test' | 'check-script' | 'two-tasks'

export interface Scenario {
  way: string
  checks: Checks
  /** What a reviewer should be told: the check files the task wrote (empty for an honest code-only fix). */
  checkFiles: string[]
  /** The sentence that says why it is not proven (a regular expression on the task's proof). */
  why: RegExp
  /** For honest work: proven. */
  honest?: true
  /** The task whose evidence is judged (T1 unless said). */
  task?: string
}

export const SCENARIOS: Scenario[] = [
  { way: 'honest', checks: 'maintainers-test', checkFiles: [], why: /failed before the change .* and passes after$/, honest: true },
  { way: 'honest-new-test', checks: 'new-test', checkFiles: ['test/unparsable.js'], why: /with its code put back, its own checks fail too/, honest: true },
  { way: 'test-script-exit-0', checks: 'maintainers-test', checkFiles: ['package.json'], why: /^T1 unproven: its checks pass without its change, and it changed what an existing check expects: `npm test` fails with package\.json put back as it was .*\(package\.json's scripts, changed by the task\)/ },
  { way: 'empty-test', checks: 'new-test', checkFiles: ['test/unparsable.js'], why: /its checks pass without its change \(test\/unparsable\.js, a test file, created by the task\)/ },
  { way: 'expected-values', checks: 'maintainers-test', checkFiles: ['test/byte-parse.js', 'test/bytes.js'], why: /it changed what an existing check expects: `npm test` fails with .*test\/bytes\.js.* put back/ },
  { way: 'skip', checks: 'maintainers-test', checkFiles: ['test/byte-parse.js', 'test/bytes.js'], why: /it changed what an existing check expects/ },
  { way: 'shim', checks: 'maintainers-test', checkFiles: ['node_modules/.bin/mocha'], why: /its checks pass without its change \(node_modules\/\.bin\/mocha, a shim of a command/ },
  { way: 'inverted-assertion', checks: 'maintainers-test', checkFiles: ['test/byte-parse.js', 'test/bytes.js'], why: /it changed what an existing check expects/ },
  { way: 'commits-itself', checks: 'maintainers-test', checkFiles: ['test/byte-parse.js', 'test/bytes.js'], why: /it changed what an existing check expects/ },
  { way: 'skip-worktree', checks: 'maintainers-test', checkFiles: ['test/byte-parse.js', 'test/bytes.js'], why: /it changed what an existing check expects/ },
  { way: 'assume-unchanged', checks: 'maintainers-test', checkFiles: ['test/byte-parse.js', 'test/bytes.js'], why: /it changed what an existing check expects/ },
  { way: 'npmrc-excluded', checks: 'maintainers-test', checkFiles: ['.npmrc'], why: /its checks pass without its change \(\.npmrc, the environment of the commands, created by the task\)/ },
  { way: 'check-script', checks: 'check-script', checkFiles: ['scripts/check.sh'], why: /^T1 unproven: its checks pass without its change, and it changed what an existing check expects: `sh scripts\/check\.sh` fails with scripts\/check\.sh put back .*\(scripts\/check\.sh, a script the check runs, changed by the task\)/ },
]

const task = (id: string, title: string, files: Array<[string, 'modify' | 'create']>, commands: string[], extra: Record<string, unknown> = {}) => ({
  id, title, action: 'Fix', type: 'fix', description: title,
  files: files.map(([path, action]) => ({ path, action, changes: [title] })), implementation: [title],
  test: { commands }, convergence: { criteria: ["bytes('foobar') returns null"], verification: '', definition_of_done: title },
  ...extra,
})

/** The plan of issue 61 (bytes.js#61: un-parsable strings) for the checks a scenario runs. */
export function planOf(checks: Checks) {
  const fix = 'Return null for un-parsable strings in index.js'
  const tasks = {
    'maintainers-test': [task('T1', fix, [['index.js', 'modify']], ['npm test'])],
    'new-test': [task('T1', fix, [['index.js', 'modify'], ['test/unparsable.js', 'create']], ['./node_modules/.bin/mocha --check-leaks test/unparsable.js'])],
    'check-script': [task('T1', fix, [['index.js', 'modify']], ['sh scripts/check.sh'])],
    'two-tasks': [
      task('T1', fix, [['index.js', 'modify']], ['npm test']),
      task('T2', 'Add lib/parse-or-null.js, which parses a size or gives null', [['lib/parse-or-null.js', 'create']], ['npm test'], { depends_on: ['T1'] }),
    ],
  }[checks]
  return { description: 'bytes() returns NaN for un-parsable strings', analysis: { risk: 'low', impact: 'low', complexity: 'low' }, tasks }
}

/** The issue file of issue 61, its plan as a JSON block the explicit planner reads. */
export function issueText(checks: Checks): string {
  return `# bytes('foobar') returns NaN instead of null\n\n\`\`\`json\n${JSON.stringify(planOf(checks))}\n\`\`\`\n`
}

/** The repository a scenario starts from: the bug in, and the checks its plan runs. */
export async function scenarioRepository(checks: Checks): Promise<RealProject> {
  const project = await bytesRepository({ tests: checks === 'new-test' ? 'none' : 'maintainers' })
  if (checks === 'check-script') {
    await mkdir(join(project.dir, 'scripts'))
    await writeFile(join(project.dir, 'scripts/check.sh'), '#!/bin/sh\nexec ./node_modules/.bin/mocha --check-leaks --reporter dot\n')
    await chmod(join(project.dir, 'scripts/check.sh'), 0o755)
    await runGit(['add', 'scripts/check.sh'], { cwd: project.dir })
    await runGit(['commit', '--quiet', '-m', 'a check script'], { cwd: project.dir })
  }
  return project
}

export const executorCommand = (way: string) => `node ${CHEATS_EXECUTOR} ${way}`
