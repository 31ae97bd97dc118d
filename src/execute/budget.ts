/**
 * The spending limit of one run (`max-cost-usd`): what its executor runs cost, as their agents report it. Fail
 * closed: once the cost reaches the limit nothing new starts, and a run whose agent reports no cost cannot be held
 * to a limit, so it stops too rather than spend unchecked.
 */
import type { ExecutorRun } from '../model/index.js'

export interface RunBudget {
  /** Adds what one executor run of `taskId` cost. */
  charge(run: ExecutorRun, taskId: string): void
  /** Why nothing more may start ("budget reached: $0.031 of $0.010 (max-cost-usd)"), or undefined. */
  exhausted(): string | undefined
}

export function costBudget(limitUsd: number): RunBudget {
  let spent = 0
  let unpriced: string | undefined
  return {
    charge(run, taskId) {
      const cost = run.agent?.usage.cost_usd
      if (typeof cost === 'number') spent += cost
      else unpriced ??= `${taskId}'s executor reported no cost`
    },
    exhausted() {
      if (unpriced) return `the budget cannot be kept: ${unpriced} (max-cost-usd needs an agent that reports its cost, such as claude-code)`
      if (spent >= limitUsd) return `budget reached: ${dollars(spent)} of ${dollars(limitUsd)} (max-cost-usd)`
      return undefined
    },
  }
}

/** Three decimals at least, more when the amount is smaller than that. */
function dollars(amount: number): string {
  return `$${amount >= 0.001 || amount === 0 ? amount.toFixed(3) : amount.toPrecision(2)}`
}
