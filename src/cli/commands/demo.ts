import { cp, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { CONVERGE_IDENTITY, identityEnv, runGit } from '../../git/git.js'
import { pipelinePlan } from '../../pipeline/plan-command.js'
import { renderPlanText } from '../../report/plan-text.js'
import { LocalGitStore } from '../../state/local-git-store.js'
import { readIssueFile } from '../issue-file.js'
import { approvePlan } from '../../pipeline/approve.js'
import { verifyIssue } from '../../pipeline/run-plan.js'
import type { ExecutionRecord, Solution } from '../../model/index.js'
import type { CliIo } from '../io.js'

/**
 * `converge demo`: copies the bundled example repository and issue to a temporary directory and runs
 * the pipeline on them, offline: plan with the built-in planner, validate, score, schedule, approve,
 * verify every task with its commands, and record each step on the local `converge/state` branch.
 */
export async function demoCommand(args: { packageRoot: string; keep: boolean }, io: CliIo): Promise<number> {
  const started = Date.now()
  const example = join(args.packageRoot, 'examples', 'demo')
  const dir = await mkdtemp(join(tmpdir(), 'converge-demo-'))
  const repo = join(dir, 'repo')
  await cp(join(example, 'repo'), repo, { recursive: true })
  const git = (gitArgs: string[]) => runGit(gitArgs, { cwd: repo, env: identityEnv(CONVERGE_IDENTITY) })
  await git(['init', '-q', '-b', 'main'])
  await git(['add', '-A'])
  await git(['commit', '-q', '-m', 'Initial commit'])

  const issue = await readIssueFile(join(example, 'issue.md'))
  io.out(`Converge demo: issue #${issue.number} "${issue.title}" in ${repo}\n`)
  const store = new LocalGitStore({ repoDir: repo })
  const { output, result } = await pipelinePlan(store, issue, 'auto', new Date().toISOString())
  io.out(renderPlanText(result.analysis, { notes: output.notes }))

  // Approve and verify: the plan's commands run against the example code, which nobody changed yet.
  const approval = await approvePlan(store, issue.number, 'demo', new Date().toISOString())
  if (approval.ok) {
    io.out(`\nApproved ${approval.solution.id} (${approval.planHash.slice(0, 19)}…); verifying against the unchanged example code:`)
    const verified = await verifyIssue(store, issue.number, {
      repoDir: repo, workRoot: join(dir, 'work'), maxParallel: 2, timeoutMs: 60_000, secrets: [], now: () => new Date().toISOString(),
    })
    if (verified.ok) io.out(verificationLines(verified.plan, verified.record).join('\n'))
  }

  const files = (await git(['ls-tree', '-r', '--name-only', store.branch])).stdout.trim().split('\n')
  const log = (await git(['log', '--format=%h %s', store.branch])).stdout.trim()
  io.out(`\nState branch ${store.branch}:\n${files.map((f) => `  ${f}`).join('\n')}\n\nCommits:\n${log.replace(/^/gm, '  ')}`)
  const status = (await git(['status', '--porcelain'])).stdout
  io.out(`\nWorking tree of main untouched: ${status === '' ? 'yes' : 'NO'}`)
  io.out(`Done in ${((Date.now() - started) / 1000).toFixed(1)} s.`)
  io.out('The tasks do not converge yet: nothing implemented the issue. An executor (an agent CLI) does that with `execute`.')
  if (args.keep) io.out(`Kept ${dir}: try  git -C ${repo} show ${store.branch}:${result.planPath}`)
  else await rm(dir, { recursive: true, force: true })
  return result.analysis.errors.length || status !== '' ? 1 : 0
}

/** One line per task: its verdict and, for a failure, the command that failed and the line that says why. */
function verificationLines(plan: Solution, record: ExecutionRecord): string[] {
  return plan.tasks.map((task) => {
    const result = record.tasks[task.id]
    if (!result) return `  ${task.id}  not run`
    const failed = result.convergence_verified.find((c) => c.kind === 'command' && c.verdict === 'fail')
    if (!failed) return `  ${task.id}  PASS  ${task.title}`
    const why = failed.output_tail?.split('\n').map((l) => l.trim()).find((l) => /error|assert|fail|not ok/i.test(l)) ?? ''
    const command = failed.text.length > 60 ? `${failed.text.slice(0, 57)}…` : failed.text
    return `  ${task.id}  FAIL  ${command} (exit ${failed.exit_code ?? '–'})${why ? `: ${why.slice(0, 100)}` : ''}`
  })
}
