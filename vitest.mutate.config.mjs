// @ts-check
import { defineConfig } from 'vitest/config'
import { TRUST_CORE } from './stryker.config.mjs'

/** The vitest of `npm run mutate`: the test files of the trust core only (stryker.config.mjs), in one project. */
export default defineConfig({
  test: {
    include: [...new Set(TRUST_CORE.flatMap((area) => area.tests))],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    unstubEnvs: true,
  },
})
