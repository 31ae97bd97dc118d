import type { AgentUsage, ExecutionRecord, TaskResult } from '../model/index.js'
import { addUsage, NO_USAGE } from './agent-output.js'

/** What the executor runs of one task reported, added up; undefined when no executor ran for it. */
export function taskUsage(result: TaskResult | undefined): AgentUsage | undefined {
  const runs = result?.executor_runs
  if (!runs?.length) return undefined
  return runs.reduce((total, run) => (run.agent ? addUsage(total, run.agent.usage) : total), NO_USAGE)
}

/** What every executor run of an execution reported, added up; undefined when no executor ran. */
export function runUsage(execution: ExecutionRecord | undefined): AgentUsage | undefined {
  const tasks = Object.values(execution?.tasks ?? {}).map(taskUsage).filter((u): u is AgentUsage => u !== undefined)
  return tasks.length ? tasks.reduce(addUsage, NO_USAGE) : undefined
}

/** Total tokens (input and output), null when the agent reported neither. */
export function totalTokens(usage: AgentUsage): number | null {
  return usage.input_tokens === null && usage.output_tokens === null ? null : (usage.input_tokens ?? 0) + (usage.output_tokens ?? 0)
}
