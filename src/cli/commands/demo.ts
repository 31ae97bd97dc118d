import { cp, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { CONVERGE_IDENTITY, identityEnv, runGit } from '../../git/git.js'
import { pipelinePlan } from '../../pipeline/plan-command.js'
import { renderPlanText } from '../../report/plan-text.js'
import { LocalGitStore } from '../../state/local-git-store.js'
import { readIssueFile } from '../issue-file.js'
import type { CliIo } from '../io.js'

/**
 * `converge demo`: copies the bundled example repository and issue to a temporary directory and runs
 * the pipeline on them, offline: plan with the built-in planner, validate, score, schedule, and commit
 * the state to the local `converge/state` branch.
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

  const files = (await git(['ls-tree', '-r', '--name-only', store.branch])).stdout.trim().split('\n')
  const log = (await git(['log', '--format=%h %s', store.branch])).stdout.trim()
  io.out(`\nState branch ${store.branch}:\n${files.map((f) => `  ${f}`).join('\n')}\n\nCommits:\n${log.replace(/^/gm, '  ')}`)
  const status = (await git(['status', '--porcelain'])).stdout
  io.out(`\nWorking tree of main untouched: ${status === '' ? 'yes' : 'NO'}`)
  io.out(`Done in ${((Date.now() - started) / 1000).toFixed(1)} s.`)
  if (args.keep) io.out(`Kept ${dir}: try  git -C ${repo} show ${store.branch}:${result.planPath}`)
  else await rm(dir, { recursive: true, force: true })
  return result.analysis.errors.length || status !== '' ? 1 : 0
}
