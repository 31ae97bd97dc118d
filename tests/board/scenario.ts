/**
 * A real state branch for the board's tests, written by the CLI as a user runs it (plan, approve, execute with shell
 * executors, sync of a folder of issue files): a completed issue whose agent reported its cost and whose
 * title is hostile markup, a failed issue, an epic whose order makes one child wait for that one, two queued issues that
 * change the same file (a file conflict), and an unapproved plan. Evidence (SPEC §7) is added to one record as the
 * evidence engine writes it, with a proven task and one that changed nothing; issue 2's failure is ANSI-coloured.
 */
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { LocalGitStore } from '../../src/state/local-git-store.js'
import { statePaths } from '../../src/model/state-layout.js'
import { transact } from '../../src/state/store.js'
import { cleanRepo, converge, issueText, type CleanRepo } from '../cli/support.js'

export const HOSTILE_TITLE = '<img src=x onerror=alert(1)>'

export interface Scenario extends CleanRepo {
  /** Issue numbers the state records, with their titles. */
  titles: Map<number, string>
}

const ISSUES: Array<{ number: number; title: string; labels: string[]; tasks: Array<[string, string, string, string[]]> }> = [
  { number: 1, title: HOSTILE_TITLE, labels: ['bug'], tasks: [['T1', 'hello.txt', 'hello', []], ['T2', 'world.txt', 'world', ['T1']]] },
  { number: 2, title: 'Broken build', labels: ['bug'], tasks: [['T1', 'build.txt', 'built', []]] },
  { number: 3, title: 'Release notes', labels: ['docs'], tasks: [['T1', 'notes.txt', 'notes', []], ['T2', 'shared.txt', 'three', ['T1']]] },
  { number: 5, title: 'Shared greeting', labels: ['enhancement'], tasks: [['T1', 'shared.txt', 'five', []]] },
]

export async function boardScenario(): Promise<Scenario> {
  const repo = await cleanRepo()
  const run = async (...args: string[]) => {
    const result = await converge([...args, '--repo', repo.repo])
    if (result.code !== 0) throw new Error(`converge ${args.join(' ')}: ${result.err}`)
    return result
  }
  const folder = join(repo.dir, 'issues')
  await mkdir(folder)
  for (const issue of ISSUES) {
    await writeFile(join(folder, `${issue.number}.md`), issueText(issue.title, issue.tasks, `number: ${issue.number}\ntitle: ${JSON.stringify(issue.title)}\nlabels: ${JSON.stringify(issue.labels)}`))
    await run('plan', '--issue-file', join(folder, `${issue.number}.md`))
  }
  // Issue 4, an epic whose ordered list makes #3 wait for #2.
  await writeFile(join(folder, '4.md'), '---\nnumber: 4\nlabels: ["epic"]\n---\n# Epic: greetings\n\n1. #2\n2. #3\n')
  await run('plan', '--issue-file', join(folder, '4.md'))

  // Issue 1: an agent that reports its cost (Claude Code's JSON) does each task.
  const agent = join(repo.dir, 'agent.mjs')
  await writeFile(agent, [
    "import { readFileSync, writeFileSync } from 'node:fs'",
    "const task = JSON.parse(readFileSync(process.env.CONVERGE_TASK_FILE, 'utf8'))",
    "for (const file of task.files) writeFileSync(file.path, task.description.split(' ')[1] + '\\n')",
    "writeFileSync(process.env.CONVERGE_AGENT_OUTPUT_FILE, JSON.stringify({ type: 'result', subtype: 'success', is_error: false, num_turns: 3, result: 'Done.', total_cost_usd: 0.0125, usage: { input_tokens: 1200, output_tokens: 340 } }))",
  ].join('\n'))
  for (const n of [1, 2, 5]) await run('approve', '--number', String(n))
  await run('execute', '--number', '1', '--executor', `node '${agent}'`)
  // Issue 2: an executor that changes nothing, so its command fails (exit 1 is the expected verdict).
  await converge(['execute', '--number', '2', '--executor', 'true', '--max-iterations', '1', '--max-retries', '0', '--repo', repo.repo])
  await run('sync', '--issues', folder)
  await addEvidence(repo.repo)
  const titles = new Map<number, string>([...ISSUES.map((i) => [i.number, i.title] as const), [4, 'Epic: greetings']])
  return { ...repo, titles }
}

/** An ANSI-coloured failure as a test runner prints it. */
export const ANSI_FAILURE = '\u001b[31mError: No test files found, exiting with code 1\u001b[39m\n\u001b[2mfilter: build\u001b[22m'
/** A criterion only the agent's report says is met. */
export const CLAIMED = 'The greeting is `world`'

/**
 * Issue 1's record with evidence as the evidence engine records it: T1 proven (failed before, passes after, its own
 * check file marked), T2 changed nothing, with a criterion only the agent claims. Issue 2's failing command printed
 * an ANSI-coloured error.
 */
async function addEvidence(repoDir: string): Promise<void> {
  const store = new LocalGitStore({ repoDir })
  await transact(store, async (snapshot) => {
    const failed = JSON.parse((await snapshot.read(statePaths.execution(2)))!)
    for (const check of failed.tasks.T1.convergence_verified) if (check.kind === 'command') check.output_tail = ANSI_FAILURE
    const record = JSON.parse((await snapshot.read(statePaths.execution(1)))!)
    record.tasks.T1.evidence = {
      kind: 'proven',
      before: [{ command: 'grep -q hello hello.txt', exit_code: 2, duration_ms: 4, output_tail: 'grep: hello.txt: No such file or directory' }],
      after: [{ command: 'grep -q hello hello.txt', exit_code: 0, duration_ms: 3, output_tail: '' }],
      check_files: [{ path: 'hello.txt', change: 'created', role: 'a test file' }],
    }
    record.tasks.T2.convergence_verified.push({ kind: 'criterion', text: CLAIMED, verdict: 'pass', verified_by: 'agent' })
    record.tasks.T2.evidence = {
      kind: 'no-change',
      before: [{ command: 'grep -q world world.txt', exit_code: 0, duration_ms: 3, output_tail: '' }],
      after: [{ command: 'grep -q world world.txt', exit_code: 0, duration_ms: 3, output_tail: '' }],
    }
    return {
      message: 'ISS-1: evidence of T1 and T2; ISS-2: a coloured failure',
      files: { [statePaths.execution(1)]: `${JSON.stringify(record, null, 2)}\n`, [statePaths.execution(2)]: `${JSON.stringify(failed, null, 2)}\n` },
    }
  })
}
