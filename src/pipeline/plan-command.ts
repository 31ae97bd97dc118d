import { agentPreflight } from '../agents/preflight.js'
import { trackedFiles, trackedPathLookup } from '../git/read-files.js'
import { IssueStateSchema } from '../model/index.js'
import { choosePlanner, commandPlan, type CommandPlannerOptions, type IssueDocument, type PlannerMode, type PlannerOutput } from '../planners/index.js'
import { statePaths } from '../model/state-layout.js'
import { readStateJson } from '../state/state-files.js'
import type { StateStore } from '../state/store.js'
import type { GitHubRelations } from './epic.js'
import { issueRelations, planIfEpic, type EpicPlanResult } from './plan-epic.js'
import { planIssue, type PlanIssueResult } from './plan-issue.js'

export interface PipelinePlanOptions {
  /** `planner: command`: how to run the planner command (required in that mode). */
  command?: Omit<CommandPlannerOptions, 'comment' | 'earlier'>
  /** What GitHub says of the issue's sub-issues, parent and dependencies (the CLI has only the text). */
  relations?: GitHubRelations
  /** What `comment` is, in notes and errors (default `the comment`; the CLI's plan file names itself). */
  commentName?: string
  /** The checkout the plan is for: a task that modifies a file it does not have is a finding (`missing-file`). */
  repoDir?: string
}

/**
 * The `plan` command on any store: choose the planner, then validate and record (see `planIssue`). With `command`
 * the agent planner runs first, shown the comment and the problems recorded on the issue so far; its attempts are
 * recorded with the plan.
 */
export async function pipelinePlan(
  store: StateStore, issue: IssueDocument, mode: PlannerMode, now: string, comment?: string, options: PipelinePlanOptions = {},
): Promise<{ output: PlannerOutput; result: PlanIssueResult; epic?: EpicPlanResult }> {
  // An epic is recorded with its children, not planned as tasks (src/pipeline/plan-epic.ts).
  const epic = await planIfEpic(store, issue, now, options.relations)
  if (epic) return epic
  // The checkout's files: the built-in planner takes only paths it has (or a task creates) as files, and the
  // gate finds a task that modifies a file it does not have. Not a git checkout: neither is checked.
  const files = options.repoDir ? await trackedFiles(options.repoDir) : undefined
  let output: PlannerOutput
  if (mode === 'command') {
    if (!options.command?.command.trim()) throw new Error('planner: command needs a planner command (planner-command, or --planner-command in the CLI)')
    const missing = await agentPreflight(options.command.command, 'planner', { PATH: options.command.plannerEnv?.PATH ?? process.env.PATH }, options.command.repoDir)
    if (missing) throw new PlannerMissingError(`Planning could not start: ${missing}`)
    const path = statePaths.issue(issue.number)
    const previous = await readStateJson(await store.snapshot([path]), path, IssueStateSchema)
    output = await commandPlan(issue, {
      ...options.command,
      ...(comment !== undefined ? { comment } : {}),
      ...(previous?.feedback.length ? { earlier: previous.feedback } : {}),
    })
  } else if (tooLongToPlan(issue, comment)) {
    output = { planner: mode === 'builtin' ? 'builtin' : 'explicit', raw: undefined, notes: [], error: tooLongToPlan(issue, comment)! }
  } else {
    output = choosePlanner(mode, issue, comment, { ...(options.commentName ? { commentName: options.commentName } : {}), ...(files ? { repoFiles: files } : {}) })
  }
  const exists = files ? trackedPathLookup(files) : undefined
  return { output, result: await planIssue(store, issue, output, now, issueRelations(issue, options.relations), exists) }
}

/** GitHub's limit on an issue's body and on a comment: what Converge's own planners read, at most. */
export const ISSUE_TEXT_LIMIT = 65_536

/**
 * Why the issue (or the comment) is too long for the built-in planner and the plan block reader, or undefined. An
 * issue on GitHub cannot be longer; a local issue file can, and the built-in planner's time grows faster than its
 * length: it is refused with the limit named, before anything is read.
 */
function tooLongToPlan(issue: IssueDocument, comment: string | undefined): PlannerOutput['error'] {
  const [what, length] = issue.body.length > ISSUE_TEXT_LIMIT ? ['the issue', issue.body.length] as const
    : comment !== undefined && comment.length > ISSUE_TEXT_LIMIT ? ['the comment', comment.length] as const : [undefined, 0] as const
  if (!what) return undefined
  return {
    code: 'issue_too_long', path: '(root)',
    message: `${what} is ${length.toLocaleString('en-US')} characters; Converge plans issues of at most ${ISSUE_TEXT_LIMIT.toLocaleString('en-US')} characters (GitHub's limit for an issue or a comment)`,
    hint: 'Split the issue into smaller issues (an epic with children), or plan it with a planner command',
  }
}

/** The planner command's program is not installed: nothing was run or recorded. */
export class PlannerMissingError extends Error {
  override name = 'PlannerMissingError'
}
