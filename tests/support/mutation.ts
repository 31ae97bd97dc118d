/**
 * Whether this test run is StrykerJS's (`npm run mutate`: its workers set STRYKER_MUTATOR_WORKER). Under mutation
 * every covering test runs once a mutant, so the scale tests run a smaller size there: the size is for `npm test`
 * (no recursion, no quadratic step), the logic is the same.
 */
export const UNDER_MUTATION = process.env.STRYKER_MUTATOR_WORKER !== undefined

/** What StrykerJS's instrumented code keeps in the process that runs it (`globalThis.__stryker__`). */
interface StrykerState {
  activeMutant?: string
  currentTestId?: string
  mutantCoverage?: { static: Record<string, number>; perTest: Record<string, Record<string, number>> }
}
const stryker = () => (globalThis as { __stryker__?: StrykerState }).__stryker__

/**
 * A test that runs a trust-core module in a child process (it must: hideLaunchSecrets writes over its own
 * process's memory) is out of the mutation run's sight: the child neither runs the active mutant nor tells which
 * code it covered. These two close the gap: give the child `mutantEnvironment()` (the instrumented code reads
 * the active mutant from it; empty outside mutation), have it print `globalThis.__stryker__?.mutantCoverage`, and
 * pass that to `countChildCoverage`, which counts it for the running test.
 */
export function mutantEnvironment(): Record<string, string> {
  const active = stryker()?.activeMutant
  return active === undefined ? {} : { __STRYKER_ACTIVE_MUTANT__: active }
}

export function countChildCoverage(child: StrykerState['mutantCoverage']): void {
  const state = stryker()
  if (!child || !state?.mutantCoverage || state.currentTestId === undefined) return
  const covered = (state.mutantCoverage.perTest[state.currentTestId] ??= {})
  for (const [mutant, hits] of Object.entries(child.static)) covered[mutant] = (covered[mutant] ?? 0) + hits
}
