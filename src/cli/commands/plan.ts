import { tmpdir } from 'node:os'
import { resolve } from 'node:path'
import { credentialValues, executorEnvironment } from '../../exec/environment.js'
import { pipelinePlan, type PipelinePlanOptions } from '../../pipeline/plan-command.js'
import { PLANNER_MODES, type PlannerMode } from '../../planners/index.js'
import { renderPlanText } from '../../report/plan-text.js'
import { LocalGitStore } from '../../state/local-git-store.js'
import { DEFAULT_STATE_BRANCH } from '../../state/layout.js'
import { readIssueFile } from '../issue-file.js'
import type { CliIo } from '../io.js'
import { UsageError } from '../usage-error.js'
import { checkRepository } from '../repository.js'

export interface PlanArgs {
  issueFile?: string
  repo: string
  number?: number
  planner: string
  stateBranch: string
  /** `--planner command`: the agent CLI's shell line. */
  plannerCommand?: string
  /** `--planner command`: attempts at most (default 3). */
  maxIterations?: number
  /** `--planner command`: time limit of each run, in minutes (default 15). */
  timeoutMinutes?: number
  signal?: AbortSignal
}

/**
 * `converge plan --issue-file <issue.md> [--repo DIR]`: plans the issue, prints the quality report and
 * the waves, and commits the result to the local state branch. With `--planner command --planner-command '<cmd>'`
 * an agent CLI writes the plan, run in --repo with the scrubbed base environment (as `converge execute` runs the
 * executor), and gets the errors back until its plan is accepted or --max-iterations attempts are spent.
 */
export async function planCommand(args: PlanArgs, io: CliIo): Promise<number> {
  if (!args.issueFile) throw new UsageError('plan needs an issue: converge plan --issue-file <issue.md> [--repo DIR]')
  if (!(PLANNER_MODES as readonly string[]).includes(args.planner))
    throw new UsageError(`--planner must be auto, explicit, builtin or command (got "${args.planner}")`)
  const mode = args.planner as PlannerMode
  if (mode === 'command' && !args.plannerCommand?.trim())
    throw new UsageError("--planner command needs --planner-command '<command>' (a CLI that reads $CONVERGE_PLAN_PROMPT_FILE and writes $CONVERGE_PLAN_FILE)")
  if (mode !== 'command' && args.plannerCommand !== undefined) throw new UsageError('--planner-command goes with --planner command')
  const issue = await readIssueFile(args.issueFile, args.number !== undefined ? { number: args.number } : {})
  await checkRepository(args.repo)
  const repoDir = resolve(args.repo)
  const store = new LocalGitStore({ repoDir, branch: args.stateBranch || DEFAULT_STATE_BRANCH })
  const options: PipelinePlanOptions = mode === 'command'
    ? {
        command: {
          command: args.plannerCommand!,
          repoDir,
          workDir: resolve(tmpdir(), 'converge'),
          maxIterations: args.maxIterations ?? 3,
          timeoutMs: (args.timeoutMinutes ?? 15) * 60_000,
          // On the user's own machine the planner agent gets their environment (its API key), less GitHub's
          // tokens; the action passes only what planner-env lists.
          plannerEnv: executorEnvironment(process.env),
          secrets: credentialValues(executorEnvironment(process.env)),
          ...(args.signal ? { signal: args.signal } : {}),
        },
      }
    : {}
  const { output, result } = await pipelinePlan(store, issue, mode, new Date().toISOString(), undefined, options)
  io.out(renderPlanText(result.analysis, { notes: output.notes }))
  io.out('')
  if (output.workDir) io.out(`Planner files (prompts, feedback, plans): ${output.workDir}`)
  // A rejected plan is not written: only the issue state, which records why, is.
  const written = result.solution ? result.planPath : 'plan rejected, not written; the issue state records why'
  if (result.commit) io.out(`State: ${store.branch} @ ${result.commit.slice(0, 12)} (${written})`)
  else io.out(`State: unchanged on ${store.branch} (${result.solution ? 'same issue, same plan' : 'same issue, same rejected plan'})`)
  return result.analysis.errors.length || result.analysis.gate === 'fail' ? 1 : 0
}
