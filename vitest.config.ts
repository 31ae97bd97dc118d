import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Most test files wait on processes (the built action, git, executors) rather than compute, so four files at
    // a time keep a 2-core machine busy; vitest's default (cores - 1) ran one file at a time there.
    maxWorkers: 4,
  },
})
