/**
 * Whether this test run is StrykerJS's (`npm run mutate`: its workers set STRYKER_MUTATOR_WORKER). Under mutation
 * every covering test runs once a mutant, so the scale tests run a smaller size there: the size is for `npm test`
 * (no recursion, no quadratic step), the logic is the same.
 */
export const UNDER_MUTATION = process.env.STRYKER_MUTATOR_WORKER !== undefined
