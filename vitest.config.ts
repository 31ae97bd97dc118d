import { defineConfig } from 'vitest/config'

/** Tests that measure the whole process (its memory) run alone in a fresh worker; every other file shares one. */
const MEASURES_PROCESS = ['tests/processes/run-command.test.ts']

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
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
        test: { name: 'shared', include: ['tests/**/*.test.ts'], exclude: MEASURES_PROCESS, isolate: false },
      },
      { extends: true, test: { name: 'isolated', include: MEASURES_PROCESS, isolate: true } },
    ],
  },
})
