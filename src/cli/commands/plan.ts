import { resolve } from 'node:path'
import { pipelinePlan } from '../../pipeline/plan-command.js'
import type { PlannerMode } from '../../planners/index.js'
import { renderPlanText } from '../../report/plan-text.js'
import { LocalGitStore } from '../../state/local-git-store.js'
import { DEFAULT_STATE_BRANCH } from '../../state/layout.js'
import { readIssueFile } from '../issue-file.js'
import type { CliIo } from '../io.js'
import { UsageError } from '../usage-error.js'

export interface PlanArgs {
  issueFile?: string
  repo: string
  number?: number
  planner: string
  stateBranch: string
}

/**
 * `converge plan --issue-file <issue.md> [--repo DIR]`: plans the issue, prints the quality report and
 * the waves, and commits the result to the local state branch.
 */
export async function planCommand(args: PlanArgs, io: CliIo): Promise<number> {
  if (!args.issueFile) throw new UsageError('plan needs an issue: converge plan --issue-file <issue.md> [--repo DIR]')
  if (!['auto', 'explicit', 'builtin'].includes(args.planner))
    throw new UsageError(`--planner must be auto, explicit or builtin (got "${args.planner}")`)
  const issue = await readIssueFile(args.issueFile, args.number !== undefined ? { number: args.number } : {})
  const store = new LocalGitStore({ repoDir: resolve(args.repo), branch: args.stateBranch || DEFAULT_STATE_BRANCH })
  const { output, result } = await pipelinePlan(store, issue, args.planner as PlannerMode, new Date().toISOString())
  io.out(renderPlanText(result.analysis, { notes: output.notes }))
  io.out('')
  if (result.commit) io.out(`State: ${store.branch} @ ${result.commit.slice(0, 12)} (${result.planPath})`)
  else io.out(`State: unchanged on ${store.branch} (same issue, same plan)`)
  return result.analysis.errors.length || result.analysis.gate === 'fail' ? 1 : 0
}
