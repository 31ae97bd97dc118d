import type { ConvergenceCheck, ExecutionRecord, Solution, Task, TaskResult } from '../../src/model/index.js'
import { analysePlan, analysePlanText } from '../../src/plan/analyse.js'
import { planHash } from '../../src/plan/hash.js'
import { verificationEntries } from '../../src/model/verification.js'
import type { RunReport } from '../../src/report/run-report.js'

/**
 * Reports as the pipeline will hand them to the renderers: the demo issue's plan (examples/demo, with a
 * fifth task so that one can wait behind a failure), and execution records shaped as the executor
 * writes them — every criterion and every command with its verdict, exit code, duration and output tail.
 */

export const SERVER = 'https://github.com/octo-org/demo'
export const LINKS = {
  stateBranch: `${SERVER}/blob/converge/state`,
  run: `${SERVER}/actions/runs/9876543210`,
}
const ISSUE = { number: 42, title: 'Accent-safe slugs and a truncate helper' }
const NODE_TEST = 'node --test'

function demoTask(id: string, fields: Partial<Task> & Pick<Task, 'title' | 'action' | 'type'>): Task {
  return {
    id,
    priority: 'medium',
    effort: 'small',
    description: fields.title,
    files: [],
    implementation: [{ step: '1', description: fields.title, actions: [] }],
    test: { commands: [], unit: [], integration: [] },
    convergence: { criteria: [], verification: '', definition_of_done: '' },
    depends_on: [],
    evidence: [],
    ...fields,
  }
}

const file = (path: string, action: 'create' | 'modify', change: string) => ({ path, action, target: null, changes: [change] })
const SLUGIFY_CHECK = `node --input-type=module -e "import assert from 'node:assert/strict'; import { slugify } from './src/slugify.js'; assert.equal(slugify('Crème brûlée'), 'creme-brulee')"`
const TRUNCATE_CHECK = `node --input-type=module -e "import assert from 'node:assert/strict'; import { truncate } from './src/truncate.js'; assert.equal(truncate('hello wonderful world', 12), 'hello…')"`
const DONE = 'Links to posts with accented titles are readable, and preview cards show titles that end on a whole word.'

export function demoSolution(): Solution {
  return {
    id: 'SOL-ISS-42-1',
    issue_id: 'ISS-42',
    description: 'Titles with accents produce broken slugs, and long titles overflow the preview cards.',
    strategy_type: 'feature',
    created_at: '2025-06-01T08:58:02Z',
    is_bound: false,
    analysis: { risk: 'low', impact: 'medium', complexity: 'medium' },
    tasks: [
      demoTask('T1', {
        title: 'Fix src/slugify.js so that accented letters become their plain ASCII letter',
        action: 'Fix', type: 'fix',
        files: [file('src/slugify.js', 'modify', "Decompose with normalize('NFKD') and drop combining marks")],
        test: { commands: [SLUGIFY_CHECK, NODE_TEST], unit: [], integration: [] },
        convergence: {
          criteria: [
            "`slugify('Crème brûlée')` returns `'creme-brulee'` and `slugify('Ça va?')` returns `'ca-va'`",
            "ASCII titles are unchanged: `slugify('Hello, World!')` still returns `'hello-world'`",
          ],
          verification: `Run: ${SLUGIFY_CHECK}\nRun: ${NODE_TEST}`,
          definition_of_done: DONE,
        },
      }),
      demoTask('T2', {
        title: 'Add src/truncate.js exporting truncate(text, max)',
        action: 'Add', type: 'feature',
        files: [file('src/truncate.js', 'create', 'Export truncate(text, max) cutting on the last space')],
        test: { commands: [TRUNCATE_CHECK, NODE_TEST], unit: [], integration: [] },
        convergence: {
          criteria: ["`truncate('hello wonderful world', 12)` returns `'hello…'`", "`truncate('short', 12)` returns `'short'`, and no result is longer than `max`"],
          verification: `Run: ${TRUNCATE_CHECK}\nRun: ${NODE_TEST}`,
          definition_of_done: DONE,
        },
      }),
      demoTask('T3', {
        title: 'Create test/truncate.test.js and extend test/slugify.test.js with accented titles',
        action: 'Create', type: 'testing', effort: 'medium',
        files: [file('test/truncate.test.js', 'create', 'Cover short, equal and long text'), file('test/slugify.test.js', 'modify', 'Add accented titles')],
        test: { commands: ['node --test test/truncate.test.js test/slugify.test.js', NODE_TEST], unit: [], integration: [] },
        convergence: {
          criteria: ['the tests cover an accented title and text shorter than, equal to and longer than `max`'],
          verification: `Run: node --test test/truncate.test.js test/slugify.test.js\nRun: ${NODE_TEST}`,
          definition_of_done: DONE,
        },
        depends_on: ['T1', 'T2'],
      }),
      demoTask('T4', {
        title: 'Document both helpers in README.md',
        action: 'Update', type: 'enhancement',
        files: [file('README.md', 'modify', 'Show one call and its result for each helper')],
        test: { commands: ['grep -q "truncate(" README.md'], unit: [], integration: [] },
        convergence: {
          criteria: ['the README shows one call and its result for `slugify` and for `truncate`'],
          verification: 'Run: grep -q "truncate(" README.md\nManual: read the README section as a newcomer would',
          definition_of_done: DONE,
        },
        depends_on: ['T2'],
      }),
      demoTask('T5', {
        title: 'Mention both helpers in CHANGELOG.md under "Unreleased"',
        action: 'Update', type: 'enhancement',
        files: [file('CHANGELOG.md', 'modify', 'One line per helper')],
        test: { commands: ['grep -q "truncate" CHANGELOG.md'], unit: [], integration: [] },
        convergence: {
          criteria: ['CHANGELOG.md names `truncate` and the slug fix under "Unreleased"'],
          verification: 'Run: grep -q "truncate" CHANGELOG.md',
          definition_of_done: DONE,
        },
        depends_on: ['T3'],
      }),
    ],
  }
}

export function approved(solution: Solution, by = 'alice'): Solution {
  return { ...solution, approval: { plan_hash: planHash(solution), approved_by: by, approved_at: '2025-06-01T09:02:11Z' } }
}

export const PLANNER_NOTES = [
  'no ```json plan block in the issue body: used the built-in planner',
  'made 5 tasks from the task list (- [ ] items)',
  'priority medium (label "priority: medium")',
]

// ---------------------------------------------------------------------------------------------------
// Command output, as `node --test` (spec reporter) and the checks print it
// ---------------------------------------------------------------------------------------------------

export function passingSuite(suite: string, tests: string[]): string {
  return [
    `▶ ${suite}`,
    ...tests.map((t, i) => `  ✔ ${t} (${(0.4 + i * 0.3).toFixed(2)}ms)`),
    `✔ ${suite} (${(1.2 + tests.length * 0.3).toFixed(1)}ms)`,
    `ℹ tests ${tests.length}`,
    'ℹ suites 1',
    `ℹ pass ${tests.length}`,
    'ℹ fail 0',
    'ℹ cancelled 0',
    'ℹ skipped 0',
    'ℹ todo 0',
    'ℹ duration_ms 71.834',
  ].join('\n')
}

export const FAILING_TRUNCATE_OUTPUT = [
  '▶ slugify',
  '  ✔ keeps ASCII titles as they are (0.52ms)',
  '  ✔ turns accented letters into ASCII (0.18ms)',
  '✔ slugify (1.4ms)',
  '▶ truncate',
  '  ✔ returns short text unchanged (0.31ms)',
  '  ✔ never returns more than max characters (0.22ms)',
  '  ✖ cuts on a word boundary (1.07ms)',
  '    AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:',
  '    ',
  "    'hello wonderful…' !== 'hello…'",
  '    ',
  '        at TestContext.<anonymous> (file:///home/runner/work/demo/demo/test/truncate.test.js:14:12)',
  '        at Test.runInAsyncScope (node:async_hooks:206:9)',
  '        at Test.run (node:internal/test_runner/test:639:25)',
  '      generatedMessage: true,',
  "      code: 'ERR_ASSERTION',",
  "      actual: 'hello wonderful…',",
  "      expected: 'hello…',",
  "      operator: 'strictEqual'",
  '',
  '✖ truncate (2.3ms)',
  'ℹ tests 5',
  'ℹ suites 2',
  'ℹ pass 4',
  'ℹ fail 1',
  'ℹ cancelled 0',
  'ℹ skipped 0',
  'ℹ todo 0',
  'ℹ duration_ms 84.112',
].join('\n')

// ---------------------------------------------------------------------------------------------------
// Execution records
// ---------------------------------------------------------------------------------------------------

interface ResultOptions {
  startedAt: string
  durationMs: number
  attempts?: number
  /** Output of each command, by command text; a command not listed printed a passing suite. */
  outputs?: Record<string, string>
  /** Commands that failed, with their exit code. */
  failing?: Record<string, number>
  /** Criteria the executor's report says are not met. */
  unmet?: string[]
  commit?: string
  error?: string
}

/** The result the executor records for a task: each criterion judged by its report, each command by its exit code. */
export function taskResult(task: Task, o: ResultOptions): TaskResult {
  const commands = verificationEntries(task).filter((e) => e.kind === 'command')
  const manual = verificationEntries(task).filter((e) => e.kind === 'manual')
  const each = commands.length ? Math.floor((o.durationMs * 0.6) / commands.length) : 0
  const commandChecks = commands.map((e, i): ConvergenceCheck => {
    const exit = o.failing?.[e.command!] ?? 0
    const output = o.outputs?.[e.command!] ?? (e.command === NODE_TEST ? passingSuite('all', ['slugify', 'truncate']) : '')
    return {
      kind: 'command', text: e.command!, verdict: exit === 0 ? 'pass' : 'fail', verified_by: 'command',
      exit_code: exit, duration_ms: each + i * 137, output_tail: output,
      ...(e.command!.startsWith('node --test') && output ? testCounts(output) : {}),
    }
  })
  const failed = commandChecks.some((c) => c.verdict === 'fail')
  const criteria = task.convergence.criteria.map((text): ConvergenceCheck => {
    const verdict = o.unmet?.includes(text) || failed ? 'fail' : 'pass'
    return { kind: 'criterion', text, verdict, verified_by: failed ? 'command' : 'agent' }
  })
  const manualChecks = manual.map((e): ConvergenceCheck => ({ kind: 'criterion', text: e.text, verdict: 'pending', verified_by: 'manual' }))
  const ok = !failed && !o.unmet?.length
  return {
    task_id: task.id,
    status: ok ? 'completed' : 'failed',
    started_at: o.startedAt,
    executed_at: new Date(Date.parse(o.startedAt) + o.durationMs).toISOString(),
    duration_ms: o.durationMs,
    files_modified: ok ? task.files.map((f) => f.path) : [],
    commit_hash: ok ? (o.commit ?? null) : null,
    tests_passed: commandChecks.length ? !failed : null,
    convergence_verified: [...criteria, ...commandChecks, ...manualChecks],
    attempts: o.attempts ?? 1,
    error: o.error ?? (ok ? null : `verification failed: ${commandChecks.filter((c) => c.verdict === 'fail').map((c) => c.text).join(', ') || 'criteria not met'}`),
  }
}

function testCounts(output: string): Pick<ConvergenceCheck, 'tests_passed' | 'tests_failed'> {
  const pass = /ℹ pass (\d+)/.exec(output)
  const fail = /ℹ fail (\d+)/.exec(output)
  return pass && fail ? { tests_passed: Number(pass[1]), tests_failed: Number(fail[1]) } : {}
}

function record(solution: Solution, status: ExecutionRecord['status'], results: TaskResult[], executedAt: string | null = null): ExecutionRecord {
  return {
    solution_id: solution.id,
    issue_id: solution.issue_id,
    plan_hash: planHash(solution),
    status,
    started_at: '2025-06-01T09:03:00Z',
    executed_at: executedAt,
    tasks: Object.fromEntries(results.map((r) => [r.task_id, r])),
  }
}

function base(): Omit<RunReport, 'status'> {
  return { issue: ISSUE, commandPrefix: '/converge', links: { ...LINKS } }
}

const task = (solution: Solution, id: string) => solution.tasks.find((t) => t.id === id)!

// ---------------------------------------------------------------------------------------------------
// Scenarios
// ---------------------------------------------------------------------------------------------------

export function freshPlan(): RunReport {
  return {
    ...base(),
    status: 'planned',
    headline: 'Planned with the builtin planner from the issue as last edited.',
    solution: demoSolution(),
    notes: PLANNER_NOTES,
  }
}

/** Approved by @alice, then the plan was edited: the approval no longer matches its content. */
export function staleApproval(): RunReport {
  const solution = approved(demoSolution())
  solution.tasks[3]!.title = 'Document both helpers and their limits in README.md'
  return { ...base(), status: 'planned', headline: 'Planned again after the issue was edited.', solution }
}

export function invalidPlan(): RunReport {
  const analysis = analysePlanText(JSON.stringify({
    id: 'SOL-ISS-42-1',
    issue_id: 'ISS-42',
    description: 'Two tasks that wait for each other',
    tasks: [
      { id: 'T1', title: 'Add the parser', action: 'Add', depends_on: ['T2'] },
      { id: 'T2', title: 'Use the parser', action: 42, depends_on: ['T1'] },
    ],
  }))
  return { ...base(), status: 'failed', headline: 'Planning failed: the plan has 1 error.', analysis }
}

/** A plan that reads, but whose criteria and verification are too vague to pass the quality gate. */
export function vaguePlan(): RunReport {
  const analysis = analysePlan({
    id: 'SOL-ISS-42-2',
    issue_id: 'ISS-42',
    description: 'Make the slugs better',
    tasks: [
      { id: 'T1', title: 'Improve the slug code', action: 'Update', files: [{ path: 'src/slugify.js', action: 'modify' }], convergence: { criteria: ['works correctly', 'code is clean'], verification: 'check it' } },
      { id: 'T2', title: 'Fix things', action: 'Fix', convergence: { criteria: ['no bugs'] }, depends_on: ['T1'] },
    ],
  })
  return { ...base(), status: 'planned', headline: 'Planned from the ```json block of the issue.', solution: analysis.solution!, analysis }
}

export function inProgress(): RunReport {
  const solution = approved(demoSolution())
  const results = [
    taskResult(task(solution, 'T1'), { startedAt: '2025-06-01T09:03:02Z', durationMs: 48_210, commit: '4be1f3a9c0d2e7f8a1b2c3d4e5f60718293a4b5c' }),
    taskResult(task(solution, 'T2'), { startedAt: '2025-06-01T09:03:02Z', durationMs: 61_904, commit: '9c2d41e07b3f5a6d8e9f0a1b2c3d4e5f60718293' }),
  ]
  return {
    ...base(),
    status: 'executing',
    headline: 'Executing wave 2 of 3.',
    solution,
    execution: record(solution, 'running', results),
    running: ['T3', 'T4'],
  }
}

export function converged(): RunReport {
  const solution = approved(demoSolution())
  const results = [
    taskResult(task(solution, 'T1'), { startedAt: '2025-06-01T09:03:02Z', durationMs: 48_210, commit: '4be1f3a9c0d2e7f8a1b2c3d4e5f60718293a4b5c' }),
    taskResult(task(solution, 'T2'), { startedAt: '2025-06-01T09:03:02Z', durationMs: 61_904, commit: '9c2d41e07b3f5a6d8e9f0a1b2c3d4e5f60718293' }),
    taskResult(task(solution, 'T3'), {
      startedAt: '2025-06-01T09:04:05Z', durationMs: 95_377, attempts: 2, commit: 'e07b3f5a6d8e9f0a1b2c3d4e5f607182934be1f3',
      outputs: { 'node --test test/truncate.test.js test/slugify.test.js': passingSuite('truncate', ['returns short text unchanged', 'never returns more than max characters', 'cuts on a word boundary']) },
    }),
    taskResult(task(solution, 'T4'), { startedAt: '2025-06-01T09:04:05Z', durationMs: 22_518, commit: '1b2c3d4e5f60718293a4b5c4be1f3a9c0d2e7f8a' }),
    taskResult(task(solution, 'T5'), { startedAt: '2025-06-01T09:05:41Z', durationMs: 12_040, commit: '5f60718293a4b5c4be1f3a9c0d2e7f8a1b2c3d4e' }),
  ]
  return {
    ...base(),
    status: 'completed',
    headline: 'Every task converged.',
    solution,
    execution: record(solution, 'completed', results, '2025-06-01T09:05:53Z'),
    links: { ...LINKS, checkRun: `${SERVER}/runs/31415926535`, pullRequest: `${SERVER}/pull/57` },
  }
}

export function withFailures(): RunReport {
  const solution = approved(demoSolution())
  const suite = 'node --test test/truncate.test.js test/slugify.test.js'
  const results = [
    taskResult(task(solution, 'T1'), { startedAt: '2025-06-01T09:03:02Z', durationMs: 48_210, commit: '4be1f3a9c0d2e7f8a1b2c3d4e5f60718293a4b5c' }),
    taskResult(task(solution, 'T2'), { startedAt: '2025-06-01T09:03:02Z', durationMs: 61_904, commit: '9c2d41e07b3f5a6d8e9f0a1b2c3d4e5f60718293' }),
    taskResult(task(solution, 'T3'), {
      startedAt: '2025-06-01T09:04:05Z', durationMs: 131_662, attempts: 2,
      outputs: { [suite]: FAILING_TRUNCATE_OUTPUT, [NODE_TEST]: FAILING_TRUNCATE_OUTPUT },
      failing: { [suite]: 1, [NODE_TEST]: 1 },
    }),
    taskResult(task(solution, 'T4'), { startedAt: '2025-06-01T09:04:05Z', durationMs: 22_518, commit: '1b2c3d4e5f60718293a4b5c4be1f3a9c0d2e7f8a' }),
  ]
  return {
    ...base(),
    status: 'failed',
    headline: 'T3 failed its verification after 2 attempts.',
    solution,
    execution: record(solution, 'failed', results, '2025-06-01T09:06:17Z'),
    links: { ...LINKS, checkRun: `${SERVER}/runs/31415926536` },
  }
}

/** A registered secret and an unregistered GitHub token, both printed by commands and quoted in an error. */
export const DEPLOY_KEY = 'dk-7f3a9c0d2e7f8a1b'
export const PRINTED_TOKEN = 'ghp_R2d2C3poBb8Yoda0Luke1Leia2Han3Solo4'

export function withSecrets(): RunReport {
  const report = withFailures()
  const t3 = report.execution!.tasks.T3!
  const leaky = [
    `> curl -H "Authorization: Bearer ${PRINTED_TOKEN}" https://registry.example.test/v2/`,
    `deploy key: ${DEPLOY_KEY}`,
    `Error: push rejected for ${DEPLOY_KEY}@deploy.example.test`,
    FAILING_TRUNCATE_OUTPUT,
  ].join('\n')
  t3.convergence_verified = t3.convergence_verified.map((c) => (c.kind === 'command' ? { ...c, output_tail: leaky } : c))
  t3.error = `verification failed; the registry answered 401 to token ${PRINTED_TOKEN} (key ${DEPLOY_KEY})`
  return { ...report, headline: `T3 failed while publishing with key ${DEPLOY_KEY}.`, secrets: [DEPLOY_KEY] }
}

// ---------------------------------------------------------------------------------------------------
// A large plan: 300 tasks in 30 waves, 180 converged, one failed with a long output, 4 running
// ---------------------------------------------------------------------------------------------------

export function largePlan(size = 300, outputLines = 60): RunReport {
  const tasks: Task[] = []
  for (let i = 1; i <= size; i++)
    tasks.push(demoTask(`T${i}`, {
      title: `Migrate src/modules/module-${String(i).padStart(3, '0')}.ts to the structured logger and drop console.log calls`,
      action: 'Modify', type: 'refactor',
      files: [file(`src/modules/module-${String(i).padStart(3, '0')}.ts`, 'modify', 'Use logger.info instead of console.log')],
      test: { commands: [`npx vitest run tests/modules/module-${i}.test.ts`, 'npx tsc --noEmit'], unit: [], integration: [] },
      convergence: {
        criteria: [`module-${i} logs through the structured logger`, `no console.log call is left in module-${i}`],
        verification: `Run: npx vitest run tests/modules/module-${i}.test.ts\nRun: npx tsc --noEmit`,
        definition_of_done: 'Logs from every module can be searched by request id.',
      },
      depends_on: i > 10 ? [`T${i - 10}`] : [],
    }))
  const solution = approved({ ...demoSolution(), tasks })
  const vitestOutput = (i: number, pass: boolean) =>
    [
      ...Array.from({ length: outputLines - 4 }, (_, k) => ` ${pass || k % 7 ? '✓' : '×'} tests/modules/module-${i}.test.ts > logs case ${k + 1} ${k % 3 ? 'with a request id' : 'without a request id'} 3ms`),
      ...(pass ? [] : [`AssertionError: expected "console.log" not to be called at module-${i}.ts:${40 + i}`]),
      ` Test Files  ${pass ? '1 passed' : '1 failed'} (1)`,
      `      Tests  ${pass ? `${outputLines - 4} passed` : `1 failed | ${outputLines - 5} passed`} (${outputLines - 4})`,
      '   Duration  1.92s',
    ].join('\n')
  const results: TaskResult[] = []
  for (let i = 1; i <= 181; i++) {
    const t = tasks[i - 1]!
    const pass = i <= 180
    const cmd = `npx vitest run tests/modules/module-${i}.test.ts`
    results.push(taskResult(t, {
      startedAt: `2025-06-01T${String(9 + Math.floor(i / 60)).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}:00Z`,
      durationMs: 20_000 + i * 97,
      outputs: { [cmd]: vitestOutput(i, pass), 'npx tsc --noEmit': '' },
      ...(pass ? { commit: `${String(i).padStart(4, '0')}f3a9c0d2e7f8a1b2c3d4e5f60718293a4b5c` } : { failing: { [cmd]: 1 } }),
    }))
  }
  return {
    ...base(),
    status: 'executing',
    headline: 'Executing wave 19 of 30.',
    solution,
    execution: record(solution, 'running', results),
    running: ['T182', 'T183', 'T184', 'T185'],
  }
}
