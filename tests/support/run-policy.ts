import type { RunPolicy } from '../../src/pipeline/run-request.js'

/**
 * A run's policy as the pipeline's tests run it: one attempt, no retries, two tasks at a time, 20 s a command, ten
 * failures at most, evidence measured; a test sets only what it is about.
 */
export function testPolicy(executorCommand: string, overrides: Partial<RunPolicy> = {}): RunPolicy {
  return {
    executorCommand, maxParallel: 2, maxIterations: 1, onFailure: 'skip', maxRetries: 0, maxErrors: 10, timeoutMs: 20_000,
    measureEvidence: true, allowDirty: false, ...overrides,
  }
}
