import { readFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { resolve } from 'node:path'
import { credentialValues, executorEnvironment } from '../../processes/environment.js'
import { PlannerMissingError, pipelinePlan, type PipelinePlanOptions } from '../../pipeline/plan-command.js'
import { PLANNER_MODES, type PlannerMode } from '../../planners/index.js'
import { renderPlanText } from '../../report/plan-text.js'
import { LocalGitStore } from '../../state/local-git-store.js'
import { DEFAULT_STATE_BRANCH, statePaths } from '../../model/state-layout.js'
import { readIssueFile } from '../issue-file.js'
import { IssueStateSchema } from '../../model/index.js'
import type { IssueDocument } from '../../planners/types.js'
import { readStateJson } from '../../state/state-files.js'
import { planForApproval } from './show.js'
import { planFileText } from '../../plan/plan-file.js'
import { runGit } from '../../git/git.js'
import type { PlanIssueResult } from '../../pipeline/plan-issue.js'
import { printDocument, type Output } from '../output.js'
import { InputError, UsageError } from '../usage-error.js'
import { checkRepository } from '../repository.js'

export interface PlanArgs {
  issueFile?: string
  /** The plan from a file instead of a planner (any form `converge validate` reads). */
  planFile?: string
  /** Plan over a recorded issue of this number whose title differs (without it, refused). */
  replace?: boolean
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
export async function planCommand(args: PlanArgs, output: Output): Promise<number> {
  if (!args.issueFile) throw new UsageError('plan needs an issue: converge plan --issue-file <issue.md> [--repo DIR]')
  if (!(PLANNER_MODES as readonly string[]).includes(args.planner))
    throw new UsageError(`--planner must be auto, explicit, builtin or command (got "${args.planner}")`)
  const mode = args.planner as PlannerMode
  if (mode === 'command' && !args.plannerCommand?.trim())
    throw new UsageError("--planner command needs --planner-command '<command>' (a CLI that reads $CONVERGE_PLAN_PROMPT_FILE and writes $CONVERGE_PLAN_FILE)")
  if (mode !== 'command' && args.plannerCommand !== undefined) throw new UsageError('--planner-command goes with --planner command')
  if (args.planFile !== undefined && mode !== 'auto' && mode !== 'explicit') throw new UsageError(`--plan-file gives the plan: it does not go with --planner ${mode}`)
  const issue = await readIssueFile(args.issueFile, args.number !== undefined ? { number: args.number } : {})
  const planBlock = args.planFile === undefined ? undefined : await planFileBlock(args.planFile)
  await checkRepository(args.repo)
  const repoDir = resolve(args.repo)
  const store = new LocalGitStore({ repoDir, branch: args.stateBranch || DEFAULT_STATE_BRANCH })
  if (!args.replace) await refuseAnotherTitle(store, issue, args.issueFile)
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
  if (args.planFile !== undefined) options.commentName = `--plan-file ${args.planFile}`
  // A plan file is planned as a ```json block given with the command would be: by the explicit planner.
  const { output: planned, result, epic } = await pipelinePlan(store, issue, planBlock ? 'explicit' : mode, new Date().toISOString(), planBlock, { ...options, repoDir })
    .catch((error: unknown) => {
      throw error instanceof PlannerMissingError ? new InputError(error.message) : error
    })
  const code = result.analysis.errors.length || result.analysis.gate === 'fail' ? 1 : 0
  if (output.json) {
    printDocument(output.io, await planDocument(issue.number, result, store.branch, repoDir, planned.workDir))
    return code
  }
  const { io } = output
  if (epic) {
    io.out(`ISS-${issue.number} is an epic (${epic.issueState.status}): each child is planned as its own issue, the epic completes when they all do`)
    for (const child of epic.children)
      io.out(`  #${child.number} ${child.title}: ${child.done ? 'done' : child.status ?? 'not planned yet'}${child.blockedBy.length ? `, waits for ${child.blockedBy.map((b) => `#${b}`).join(', ')}` : ''}`)
    io.out(result.commit ? `State: ${store.branch} @ ${result.commit.slice(0, 12)}` : `State: unchanged on ${store.branch}`)
    return 0
  }
  // The plan as stored: its id is the one recorded (a new plan of an issue gets the next number).
  const analysis = result.solution ? { ...result.analysis, solution: result.solution } : result.analysis
  const checkText = renderPlanText(analysis, { notes: planned.notes, ...(planned.questions ? { questions: planned.questions } : {}) })
  io.out(result.solution && result.planHash && !analysis.errors.length ? planForApproval(checkText, result.solution, result.planHash, issue.number) : checkText)
  io.out('')
  if (result.solution && result.replaced) io.out(replacedLine(result.replaced, result.solution.id, issue.number))
  if (planned.workDir) io.out(`Planner files (prompts, feedback, plans): ${planned.workDir}`)
  // A rejected plan is not written: only the issue state, which records why, is.
  const written = result.solution ? result.planPath : 'plan rejected, not written; the issue state records why'
  if (result.commit) io.out(`State: ${store.branch} @ ${result.commit.slice(0, 12)} (${written})`)
  else io.out(`State: unchanged on ${store.branch} (${result.solution ? 'same issue, same plan' : 'same issue, same rejected plan'})`)
  return code
}

/** A re-plan: which plan the new one replaces, and that an approval of the old one does not carry over. */
function replacedLine(replaced: NonNullable<PlanIssueResult['replaced']>, id: string, n: number): string {
  if (!replaced.approvedBy) return `Planned again: ${id} replaces ${replaced.id}.`
  return `Planned again: ${id} replaces ${replaced.id}, and the approval of ${replaced.id} by ${replaced.approvedBy} was dropped (it was bound to that plan's hash): read it with converge show --number ${n}, then converge approve --number ${n}`
}

/**
 * An issue file whose number is recorded with another title is refused: two different issues in files without
 * numbers must not share one state (the second would replace the first's plan). A retitled issue says --replace.
 */
async function refuseAnotherTitle(store: LocalGitStore, issue: IssueDocument, file: string): Promise<void> {
  const path = statePaths.issue(issue.number)
  const recorded = await readStateJson(await store.snapshot([path]), path, IssueStateSchema)
  if (!recorded || recorded.title === issue.title) return
  throw new InputError(
    `ISS-${issue.number} is recorded as "${recorded.title}", and ${file} is "${issue.title}". ` +
      `If it is the same issue, retitled, plan it again with --replace (its plan is replaced and an approval dropped); if it is another issue, give it its own number (--number <n>)`,
  )
}

/** The plan of a `--plan-file`, as a ```json block; a .jsonl file must hold one solution (else: which one?). */
async function planFileBlock(path: string): Promise<string> {
  const text = await readFile(path, 'utf8').catch((error: NodeJS.ErrnoException) => {
    throw error.code === 'ENOENT' ? new UsageError(`--plan-file ${path}: no such file`) : error
  })
  const plan = planFileText(text, path)
  if (plan.form === 'markdown-without-plan') throw new InputError(`--plan-file ${path}: Markdown without a \`\`\`json block: put the plan in one`)
  if (plan.form === 'jsonl' && plan.lines.length > 1)
    throw new InputError(`--plan-file ${path}: ${plan.lines.length} solutions, one per line: save the one to plan in a file of its own`)
  const json = plan.form === 'jsonl' ? plan.lines[0]!.text : plan.text
  return `\`\`\`json\n${json}\n\`\`\``
}

/** The --json document of `plan`: the plan's verdict, and the state files its commit wrote (as git lists them). */
async function planDocument(n: number, result: PlanIssueResult, branch: string, repoDir: string, workDir: string | undefined) {
  const { analysis } = result
  const paths = result.commit
    ? (await runGit(['diff-tree', '--root', '--no-commit-id', '--name-only', '-r', result.commit], { cwd: repoDir })).stdout.trim().split('\n').filter(Boolean)
    : []
  return {
    issue: n, solution_id: result.solution?.id ?? null, plan_hash: result.planHash ?? null, status: result.issueState.status,
    gate: analysis.gate, score: analysis.quality?.quality_score ?? null,
    errors: analysis.errors, findings: [...(analysis.quality?.findings ?? []), ...(analysis.proof ?? [])], warnings: analysis.warnings,
    state: { branch, commit: result.commit, paths }, planner_files: workDir ?? null,
  }
}
