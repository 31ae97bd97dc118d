import { cp, mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { CONVERGE_IDENTITY, identityEnv, runGit } from '../../git/git.js'
import { pipelinePlan } from '../../pipeline/plan-command.js'
import { evidenceSentence, KIND_LABEL, provedBy } from '../../report/evidence-words.js'
import { renderPlanText } from '../../report/plan-text.js'
import { LocalGitStore } from '../../state/local-git-store.js'
import { readIssueFile } from '../issue-file.js'
import { approvePlan } from '../../pipeline/approve.js'
import { executeIssue, verifyIssue } from '../../pipeline/run-plan.js'
import { runOf } from '../../pipeline/run-request.js'
import { workBranchName } from '../../model/state-layout.js'
import { demoRunRequest } from '../run-request.js'
import type { ExecutionRecord, Solution } from '../../model/index.js'
import { printDocument, progressIo, taskEntries, type Output, type TaskEntry } from '../output.js'

/**
 * `converge demo`: copies the bundled example repository and issue to a temporary directory and runs
 * the pipeline on them, offline: plan with the built-in planner, validate, score, schedule, approve,
 * verify every task with its commands (they fail: nothing implemented the issue yet), then execute —
 * `examples/demo/executor.mjs`, a scripted stand-in for an agent CLI, does each task (and gets one wrong at
 * first, to show the debug loop), the commands verify it, and each converged task is committed to
 * the work branch of issue 42 — recording each step on the local `converge/state` branch.
 */
export async function demoCommand(args: { packageRoot: string; keep: boolean }, output: Output): Promise<number> {
  const started = Date.now()
  // With --json the walk-through goes to stderr and the summary document to stdout.
  const io = progressIo(output)
  const example = join(args.packageRoot, 'examples', 'demo')
  const dir = await mkdtemp(join(tmpdir(), 'converge-demo-'))
  const repo = join(dir, 'repo')
  await cp(join(example, 'repo'), repo, { recursive: true })
  const git = (gitArgs: string[]) => runGit(gitArgs, { cwd: repo, env: identityEnv(CONVERGE_IDENTITY) })
  await git(['init', '-q', '-b', 'main'])
  await git(['add', '-A'])
  await git(['commit', '-q', '-m', 'Initial commit'])
  const initial = (await git(['rev-parse', 'HEAD'])).stdout.trim()

  const issue = await readIssueFile(join(example, 'issue.md'))
  io.out(`Converge demo: issue #${issue.number} "${issue.title}" in ${repo}\n`)
  const store = new LocalGitStore({ repoDir: repo })
  const { output: planned, result } = await pipelinePlan(store, issue, 'auto', new Date().toISOString())
  io.out(renderPlanText(result.analysis, { notes: planned.notes }))

  let verification: TaskEntry[] = []
  let execution: TaskEntry[] = []
  // Approve and verify: the plan's commands run against the example code, which nobody changed yet.
  const approval = await approvePlan(store, issue.number, 'demo', new Date().toISOString())
  if (!approval.ok) io.err(approval.reason)
  if (approval.ok) {
    io.out(`\nApproved ${approval.solution.id} (${approval.planHash.slice(0, 19)}…); verifying against the unchanged example code:`)
    const verified = await verifyIssue(store, issue.number, runOf(demoRunRequest(repo, join(dir, 'verify'), 'none'), issue.number, { commit: false }).options)
    if (verified.ok) {
      io.out(verificationLines(verified.plan, verified.record).join('\n'))
      verification = taskEntries(verified.plan, verified.record)
    }
  }

  // Execute: a scripted executor stands in for an agent CLI, the commands verify each task, converged tasks are committed.
  const branchName = workBranchName(issue.number)
  let converged = false
  let how = ''
  if (approval.ok) {
    const executor = join(example, 'executor.mjs')
    io.out(`\nExecuting with ${relative(args.packageRoot, executor)}, a scripted stand-in for an agent CLI such as Claude Code`)
    io.out(`(develop → validate → debug, at most 3 attempts a task; each converged task is committed to ${branchName}):`)
    const executed = await executeIssue(store, issue.number, runOf(demoRunRequest(repo, join(dir, 'execute'), `node ${shellQuote(executor)}`), issue.number, { commit: true }).options)
    if (!executed.ok) io.err(executed.reason)
    else {
      io.out((await executionLines(executed.plan, executed.record, join(dir, 'execute', `ISS-${issue.number}`))).join('\n'))
      converged = executed.record.status === 'completed' && Object.values(executed.record.tasks).every(provedBy)
      how = howConverged(executed.record)
      execution = taskEntries(executed.plan, executed.record)
      const commits = (await git(['log', '--oneline', `main..${branchName}`])).stdout.trim()
      io.out(`\ngit log --oneline main..${branchName}\n${commits.replace(/^/gm, '  ')}`)
    }
  }

  const files = (await git(['ls-tree', '-r', '--name-only', store.branch])).stdout.trim().split('\n')
  const log = (await git(['log', '--format=%h %s', store.branch])).stdout.trim()
  io.out(`\nState branch ${store.branch}:\n${files.map((f) => `  ${f}`).join('\n')}\n\nCommits:\n${log.replace(/^/gm, '  ')}`)
  // execute checked out the work branch: main must still be the initial commit, and nothing left uncommitted.
  const mainNow = (await git(['rev-parse', 'main'])).stdout.trim()
  const status = (await git(['status', '--porcelain', '--untracked-files=all'])).stdout
  io.out(`\nmain untouched (still ${initial.slice(0, 7)}): ${mainNow === initial ? 'yes' : 'NO'}; working tree clean: ${status === '' ? 'yes' : 'NO'}`)
  io.out(`Done in ${((Date.now() - started) / 1000).toFixed(1)} s.`)
  if (converged)
    io.out([
      `Every task converged (${how}): the work is on ${branchName}, one commit a task. In your repository an agent CLI plays the`,
      `executor's part, e.g.  converge execute --number <n> --executor claude-code`,
    ].join('\n'))
  if (args.keep) io.out(`Kept ${dir}: try  git -C ${repo} log --stat main..${branchName}  or  git -C ${repo} show ${store.branch}:${result.planPath}`)
  else await rm(dir, { recursive: true, force: true })
  if (output.json)
    printDocument(output.io, {
      issue: issue.number, solution_id: result.solution?.id ?? null, gate: result.analysis.gate, verification, execution, converged,
      main_untouched: mainNow === initial, working_tree_clean: status === '', state_files: files, duration_ms: Date.now() - started, kept: args.keep ? dir : null,
    })
  return result.analysis.errors.length || !converged || mainNow !== initial || status !== '' ? 1 : 0
}

/**
 * One line per task of the run: converged or failed, its attempts and commit; under it, for each attempt that did
 * not converge, the failure the next attempt was fed (its `feedback.md`, under `<workRoot>/ISS-<n>/<task>/`).
 */
async function executionLines(plan: Solution, record: ExecutionRecord, issueDir: string): Promise<string[]> {
  const lines: string[] = []
  for (const task of plan.tasks) {
    const result = record.tasks[task.id]
    if (!result) {
      lines.push(`  ${task.id}  not run`)
      continue
    }
    const verdict = result.status !== 'completed' ? result.status : provedBy(result) ? 'converged' : KIND_LABEL[result.evidence!.kind]
    const attempts = `${result.attempts} attempt${result.attempts === 1 ? '' : 's'}`
    const commit = result.commit_hash ? result.commit_hash.slice(0, 7) : '–'
    lines.push(`  ${task.id}  ${verdict.padEnd(9)}  ${attempts.padEnd(10)}  ${commit.padEnd(7)}  ${task.title}`)
    for (const { attempt, feedback } of await feedbackFiles(join(issueDir, task.id)))
      lines.push(`        attempt ${attempt - 1} failed, fed back to attempt ${attempt}: ${feedbackSummary(feedback)}`)
    if (result.status !== 'completed' && result.error) lines.push(`        ${result.error.length > 120 ? `${result.error.slice(0, 119)}…` : result.error}`)
    if (result.evidence && result.status === 'completed') lines.push(`        evidence: ${evidenceSentence(task.id, result.evidence)}`)
  }
  return lines
}

/** The non-empty `round-<r>/attempt-<a>/feedback.md` of one task, in order (the task loop's layout). */
async function feedbackFiles(taskDir: string): Promise<Array<{ attempt: number; feedback: string }>> {
  const number = (name: string) => Number(name.replace(/^\D+/, ''))
  const list = async (path: string) => (await readdir(path).catch(() => [] as string[])).sort((x, y) => number(x) - number(y))
  const found: Array<{ attempt: number; feedback: string }> = []
  for (const round of await list(taskDir))
    for (const attempt of await list(join(taskDir, round))) {
      const feedback = await readFile(join(taskDir, round, attempt, 'feedback.md'), 'utf8').catch(() => '')
      if (feedback.trim()) found.push({ attempt: number(attempt), feedback })
    }
  return found
}

/** The first failed command of a `feedback.md`, shortened, and what its output says: an assertion's actual and expected values when it shows them. */
function feedbackSummary(feedback: string): string {
  const lines = feedback.split('\n')
  const headline = lines.find((l) => l.startsWith('## `'))
  if (!headline) return lines.find((l) => l.startsWith('- '))?.slice(2) ?? 'criteria not met'
  const said = headline.slice(3).replace(/`([^`]*)`/, (_, command: string) => `\`${command.length > 48 ? `${command.slice(0, 47)}…` : command}\``)
  const diff = lines.findIndex((l) => l.trim() === '+ actual - expected')
  const actual = diff >= 0 ? lines.slice(diff + 1).find((l) => l.startsWith('+ ')) : undefined
  const expected = diff >= 0 ? lines.slice(diff + 1).find((l) => l.startsWith('- ')) : undefined
  if (actual && expected) return `${said}: got ${actual.slice(2)}, expected ${expected.slice(2)}`
  const why = lines.find((l) => /error|assert|not ok|could not/i.test(l) && !l.startsWith('#'))?.trim()
  return why ? `${said}: ${why.length > 100 ? `${why.slice(0, 99)}…` : why}` : said
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

/** A single-quoted word for `sh`, whatever the path holds. */
function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`
}

/**
 * What proved each task, as its evidence says: "T1, T2 and T4 proven by a command that failed before the change and
 * passes after it; T3 a regression guard …" (a task that wrote only tests is never said to be proven by them).
 */
function howConverged(record: ExecutionRecord): string {
  const ids = (kind: string) => Object.entries(record.tasks).filter(([, t]) => t.evidence?.kind === kind).map(([id]) => id).sort()
  const list = (names: string[]) => (names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)}` : names[0]!)
  const proven = ids('proven')
  const guards = ids('regression-guard')
  return [
    proven.length ? `${list(proven)} proven by a command that failed before the change and passes after it` : '',
    guards.length ? `${list(guards)} a regression guard: its checks passed before the change and still pass` : '',
  ].filter(Boolean).join('; ')
}
