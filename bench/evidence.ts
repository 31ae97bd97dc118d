/**
 * What evidence costs (SPEC §7 "Evidence", "Evidence integrity"): a whole `execute` with evidence on (each task's
 * commands run once before its executor, and the differential runs when a task writes its own checks) against the
 * same run with `evidence: off`, on the bundled demo and on two 40-task plans — one whose tasks write only code,
 * one whose tasks also write the test that checks them (so each task's forward run happens) — in fresh local
 * repositories; the ratio is the time with evidence over the time without it.
 */
import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { readIssueFile } from '../src/cli/issue-file.js'
import { CONVERGE_IDENTITY, identityEnv, runGit } from '../src/git/git.js'
import { approvePlan } from '../src/pipeline/approve.js'
import { pipelinePlan } from '../src/pipeline/plan-command.js'
import { executeIssue } from '../src/pipeline/run-plan.js'
import { RunBranch } from '../src/pipeline/run-branch.js'
import { systemClock } from '../src/pipeline/run-context.js'
import type { IssueDocument } from '../src/planners/index.js'
import { LocalGitStore } from '../src/state/local-git-store.js'
import { fmt, table } from './measure.js'

const DEMO = new URL('../examples/demo/', import.meta.url).pathname
const RUNS = 3

/** The 40-task plan's repository: each task writes one file, checked by a node script (a real process, like a test). */
const CHECK = "const f = process.argv[2]; const fs = require('node:fs'); process.exit(fs.existsSync(f) && fs.readFileSync(f, 'utf8').trim() === '42' ? 0 : 1)\n"
const EXECUTOR = "const fs = require('node:fs'); const t = JSON.parse(fs.readFileSync(process.env.CONVERGE_TASK_FILE, 'utf8')); fs.mkdirSync('out', { recursive: true }); for (const f of t.files) fs.writeFileSync(f.path, '42\\n')\n"

/** The same, and each task writes the check of its answer too: `test/<n>.check.cjs`. */
const EXECUTOR_WITH_TESTS = "const fs = require('node:fs'); const t = JSON.parse(fs.readFileSync(process.env.CONVERGE_TASK_FILE, 'utf8')); fs.mkdirSync('out', { recursive: true }); fs.mkdirSync('test', { recursive: true }); for (const f of t.files) fs.writeFileSync(f.path, f.path.startsWith('test/') ? fs.readFileSync('check.js', 'utf8').replace('process.argv[2]', JSON.stringify(f.path.replace('test/', 'out/').replace('.check.cjs', '.txt'))) : '42\\n')\n"

function fortyTasks(withTests = false): string {
  const tasks = Array.from({ length: 40 }, (_, i) => ({
    id: `T${i + 1}`, title: `Write out/${i + 1}.txt`, action: 'Create', description: `Write 42 to out/${i + 1}.txt`,
    files: [{ path: `out/${i + 1}.txt`, action: 'create', changes: ['Write 42'] }, ...(withTests ? [{ path: `test/${i + 1}.check.cjs`, action: 'create', changes: ['Check it'] }] : [])],
    implementation: ['Write 42'],
    test: { commands: [withTests ? `node test/${i + 1}.check.cjs` : `node check.js out/${i + 1}.txt`] },
    convergence: { criteria: [`out/${i + 1}.txt holds 42`], verification: '', definition_of_done: 'The answer is there' },
    depends_on: i % 4 === 0 || i === 0 ? [] : [`T${i}`],
  }))
  return `\`\`\`json\n${JSON.stringify({ description: withTests ? 'Forty answers and their tests' : 'Forty answers', analysis: { risk: 'low', impact: 'low', complexity: 'low' }, tasks })}\n\`\`\`\n`
}

interface Case {
  name: string
  /** Fills `repo` and returns the issue and the executor command. */
  prepare(repo: string): Promise<{ issue: IssueDocument; executor: string }>
}

const CASES: Case[] = [
  {
    name: 'demo (4 tasks)',
    async prepare(repo) {
      await cp(join(DEMO, 'repo'), repo, { recursive: true })
      return { issue: await readIssueFile(join(DEMO, 'issue.md')), executor: `node '${join(DEMO, 'executor.mjs')}'` }
    },
  },
  {
    name: '40-task plan',
    async prepare(repo) {
      await writeFile(join(repo, 'check.js'), CHECK)
      await writeFile(join(repo, 'executor.js'), EXECUTOR)
      return { issue: { number: 40, title: 'Forty answers', body: fortyTasks(), labels: [] }, executor: 'node executor.js' }
    },
  },
  {
    name: '40-task plan, each task writes its test',
    async prepare(repo) {
      await writeFile(join(repo, 'check.js'), CHECK)
      await writeFile(join(repo, 'executor.js'), EXECUTOR_WITH_TESTS)
      return { issue: { number: 41, title: 'Forty answers and their tests', body: fortyTasks(true), labels: [] }, executor: 'node executor.js' }
    },
  },
]

/** One execute in a fresh repository, in ms. */
async function timedRun(c: Case, measure: boolean): Promise<number> {
  const dir = await mkdtemp(join(tmpdir(), 'converge-bench-evidence-'))
  try {
    const repo = join(dir, 'repo')
    await runGit(['init', '-q', '-b', 'main', repo], { cwd: dir })
    const { issue, executor } = await c.prepare(repo)
    const git = (args: string[]) => runGit(args, { cwd: repo, env: identityEnv(CONVERGE_IDENTITY) })
    await git(['add', '-A'])
    await git(['commit', '-q', '-m', 'initial'])
    const store = new LocalGitStore({ repoDir: repo })
    await pipelinePlan(store, issue, 'auto', new Date().toISOString())
    const approved = await approvePlan(store, issue.number, 'bench', new Date().toISOString())
    if (!approved.ok) throw new Error(approved.reason)
    const branch = new RunBranch({ n: issue.number, repoDir: repo, identity: CONVERGE_IDENTITY })
    const start = process.hrtime.bigint()
    const result = await executeIssue(store, issue.number, {
      policy: { executorCommand: executor, maxParallel: 2, maxIterations: 3, onFailure: 'skip', maxRetries: 0, maxErrors: 3, timeoutMs: 60_000 },
      repoDir: repo, workRoot: join(dir, 'work'), secrets: [], now: systemClock, executorEnv: {},
      evidence: { measure },
      beforeTasks: () => branch.prepare(),
      committer: branch.committer(),
    })
    const ms = Number(process.hrtime.bigint() - start) / 1e6
    if (!result.ok || result.record.status !== 'completed') throw new Error(`${c.name}: the run did not complete`)
    // The differential runs happened where they should: every task of the plan that writes its tests is proven.
    if (measure && c.name.includes('writes its test') && Object.values(result.record.tasks).some((t) => t.evidence?.kind !== 'proven' || !t.evidence.forward))
      throw new Error(`${c.name}: a task is not proven by a forward run`)
    return ms
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

/** The added time, with its sign: on a busy machine the noise can outweigh a fast baseline. */
const signed = (ms: number) => `${ms < 0 ? '−' : '+'}${fmt(Math.abs(ms))}`
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!

export async function benchEvidence(): Promise<string> {
  const rows: string[][] = []
  for (const c of CASES) {
    const off: number[] = []
    const on: number[] = []
    // Alternated, so that a slower moment of the machine weighs on both.
    for (let i = 0; i < RUNS; i++) {
      off.push(await timedRun(c, false))
      on.push(await timedRun(c, true))
    }
    rows.push([c.name, fmt(median(off)), fmt(median(on)), signed(median(on) - median(off)), `${(median(on) / median(off)).toFixed(2)}×`])
  }
  return [
    `Evidence: a whole execute with the baseline (each task's commands run before its executor) against evidence: off, median of ${RUNS}`,
    table(['plan', 'off (ms)', 'on (ms)', 'added (ms)', 'ratio'], rows),
  ].join('\n')
}
