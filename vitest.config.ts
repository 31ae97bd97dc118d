import { defineConfig } from 'vitest/config'
import { FULL_SUITE, hangGuard } from './tests/support/suite-size.js'

/**
 * Files that run alone in a fresh worker; every other file shares one. They measure the whole process (its memory),
 * or mock a module (`vi.mock`), which a shared worker may have loaded already for another file.
 */
const RUN_ALONE = ['tests/processes/run-command.test.ts', 'tests/git/content-key.test.ts']

/**
 * The full suite's files that `npm test` leaves to CI (`npm run test:all`, `CONVERGE_SUITE_SIZE` ≥ 2), to keep it
 * within its 4 minutes on a 2-core machine: the hardening and property suites (which also grow with the size), the
 * scenario walks of the CLI and the action through whole runs (each flow keeps an end-to-end test in `npm test`:
 * tests/e2e/plan, harness, local-action, board, agent-planner, and the demo in tests/cli/cli.test.ts), and the
 * emulator's tests of itself. Measured in one `npm test` (load average ~20): these files took 1,814 of its 3,151
 * file-seconds.
 */
const FULL_SUITE_ONLY = [
  // Hardening and property suites, at the size CI sets.
  'tests/hardening/faults.test.ts',
  'tests/hardening/kill-resume.test.ts',
  'tests/hardening/bad-input.test.ts',
  'tests/hardening/attacks.test.ts',
  'tests/report/property.test.ts',
  'tests/report/size.test.ts',
  'tests/security/long-plans.test.ts',
  'tests/security/git-config.test.ts',
  'tests/security/undeclared-files.test.ts',
  // Whole runs of the built action (dist/index.js) per scenario.
  'tests/e2e/execute.test.ts',
  'tests/e2e/verify.test.ts',
  'tests/e2e/evidence.test.ts',
  'tests/e2e/evidence-integrity.test.ts',
  'tests/e2e/scale-out.test.ts',
  'tests/e2e/epics.test.ts',
  'tests/e2e/queue.test.ts',
  'tests/action/epics.test.ts',
  // Whole runs of the CLI per scenario.
  'tests/cli/next-hints.test.ts',
  'tests/cli/readable-plan.test.ts',
  'tests/cli/live-output.test.ts',
  'tests/cli/evidence.test.ts',
  'tests/cli/real-project-loop.test.ts',
  'tests/execute/check-memo.test.ts',
  'tests/board/board-safety.test.ts',
  'tests/github/sync.test.ts',
  'tests/queue/sync-queue.test.ts',
  // The API emulator's tests of itself.
  'tests/emulator/git-http.test.ts',
  'tests/emulator/graphql.test.ts',
  'tests/emulator/fork-pulls.test.ts',
  'tests/emulator/git-data.test.ts',
  'tests/emulator/faults.test.ts',
  'tests/emulator/rest-issues.test.ts',
]

/** CI's full suite, or files named on the command line (`npx vitest run tests/e2e/execute.test.ts` runs it). */
const RUNS_EVERY_FILE = FULL_SUITE || process.argv.some((arg) => /^(\.\/)?tests\/.+/.test(arg))

export default defineConfig({
  test: {
    // A guard against a hang, not a measure: in CI a whole run of the action that takes 48 s alone has taken over a minute.
    testTimeout: hangGuard(60_000),
    hookTimeout: hangGuard(60_000),
    // Most test files wait on processes (the built action, git, executors) rather than compute, so four files at
    // a time keep a 2-core machine busy; vitest's default (cores - 1) ran one file at a time there.
    maxWorkers: 4,
    // A stubbed variable never outlives its test, whichever file runs next in the same worker.
    unstubEnvs: true,
    projects: [
      {
        extends: true,
        // Files share their worker's modules: GitHub's OpenAPI description, the emulator's compiled validators and
        // the transformed sources are loaded once a worker instead of once a file (npm test: 4 min → 3 min 20 s on 2 cores).
        // Each file still restores what it changes (environment, timers, servers) in its own hooks.
        test: {
          name: 'shared',
          include: ['tests/**/*.test.ts'],
          exclude: [...RUN_ALONE, ...(RUNS_EVERY_FILE ? [] : FULL_SUITE_ONLY)],
          isolate: false,
        },
      },
      { extends: true, test: { name: 'isolated', include: RUN_ALONE, isolate: true } },
    ],
  },
})
