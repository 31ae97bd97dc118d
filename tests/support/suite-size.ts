/**
 * The size of the test run: 1 in `npm test`, 3 in CI (`npm run test:all` sets `CONVERGE_SUITE_SIZE`). At a larger size
 * the suites run the cases that repeat, at scale or in another scenario, what `npm test` already shows
 * (docs/development.md, "npm test and CI's full suite").
 */
export const SUITE_SIZE = Math.max(1, Number(process.env.CONVERGE_SUITE_SIZE ?? 1) || 1)

/** CI's full suite. */
export const FULL_SUITE = SUITE_SIZE >= 2

/**
 * CI runs its suites beside each other on one machine (the main suite, the real agent CLIs, the action on node24,
 * mutation testing; `.ci/run` sets CONVERGE_SHARED_MACHINE), where a run that takes 30 s alone has taken over 60 s:
 * hang guards there are 4× longer. They guard against a hang; they measure nothing.
 */
export const SHARED_MACHINE = FULL_SUITE || process.env.CONVERGE_SHARED_MACHINE === '1'

/** A hang guard of `ms` alone: 4× that where CI's suites share the machine. */
export function hangGuard(ms: number): number {
  return SHARED_MACHINE ? 4 * ms : ms
}
