/**
 * The kill-and-resume suite: `/converge execute` runs through dist/index.js as a runner runs it (against the API
 * emulator) and is killed at a random point, with SIGTERM to its process group (a cancelled job, or Ctrl-C: the
 * action may record what it has and exit) or SIGKILL (a lost runner: nothing more happens). A plain rerun of
 * `/converge execute` must then finish the work. Checked for every kill:
 *
 * - the kill landed (the run had not finished before its kill point): every first kill of a case, and three of four
 *   kills in all (a resumed run is as long as the kill before it left it);
 * - the process has exited (after SIGTERM on its own, well before the runner's timeout, its run recorded as ended
 *   and its check runs completed; a run killed by the SIGTERM itself fails unless no request of it had been sent:
 *   the action's handlers are in place before its first request), the state branch is valid (`auditStateBranch`),
 *   and no task is recorded as failed or skipped (nothing fails here: a task the kill interrupted has no verdict);
 * - the next run does not start the executor for any task recorded complete at the kill (no task run twice after it
 *   was recorded complete), and a commit recorded at the kill stays the task's commit;
 * - the rerun ends with every task completed, one commit per task on `converge/issue-<n>`, a pull request for the
 *   branch, and a valid state branch.
 *
 * Kill points are drawn from a seeded PRNG over the whole run. The triggers take turns: after K requests of the run
 * reached the emulator (K = 0 is before the first task; the largest K land in the final report), after a delay,
 * right after the j-th push of the work branch (between a commit and its recording), and during the j-th executor
 * run (the executor or its verification). Each case is one issue with a 5-task plan in two waves, planned and
 * approved, then killed once or twice (the resumed run is killed too) before the rerun. One uninterrupted run
 * measured first gives the ranges.
 *
 * Fixed seeds (the timing of a kill still varies). `CONVERGE_SUITE_SIZE=5` runs five times as many kills;
 * `CONVERGE_KILL_SEED=<seed>@<kill>` runs the one case a failure names, with the triggers and signals it met.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readdir, readFile } from 'node:fs/promises'
import { dirname } from 'node:path'
import { setTimeout as delay } from 'node:timers/promises'
import { ExecutionRecordSchema, type ExecutionRecord } from '../../src/model/index.js'
import { runGit } from '../../src/git/git.js'
import { answerPlan, answerTask, issueBodyWithPlan, startAnswerRepo } from '../support/answer-plans.js'
import type { Emulator } from '../support/emulator/index.js'
import { mulberry32 } from '../support/emulator/faults.js'
import type { Violation } from '../support/emulator/journal.js'
import { issueCommentEvent, issueLabeledEvent } from '../support/events.js'
import { disposeRuns, runAction } from '../support/runner.js'
import { auditStateBranch } from '../support/state-audit.js'
import { SUITE_SIZE } from '../support/suite-size.js'

const SIZE = SUITE_SIZE
// 2 kills when the file is run alone; 8 in CI (`CONVERGE_SUITE_SIZE=3`: two per trigger, within CI's 20 minutes).
const KILLS = SIZE === 1 ? 2 : Math.round((8 * SIZE) / 3)
const SEED = 0x6b111
/**
 * Only the case a failure names: `CONVERGE_KILL_SEED=<seed>@<kill>`, its seed and the number of kills before it in
 * the suite (which trigger and signal its kills meet; they take turns over the suite).
 */
const ONLY = process.env.CONVERGE_KILL_SEED?.match(/^(\d+)(?:@(\d+))?$/)
const ONLY_SEED = ONLY ? Number(ONLY[1]) : undefined
/** The kills before the first one this run makes (0 unless one case is replayed). */
const FIRST_KILL = ONLY ? Number(ONLY[2] ?? 0) : 0
const STATE = 'converge/state'
const TASKS = ['T1', 'T2', 'T3', 'T4', 'T5']
const TRIGGERS = ['requests', 'delay', 'push', 'executor'] as const
/** How often the kill trigger looks at the emulator's logs. */
const POLL_MS = 3
/** After SIGTERM the action must be gone within this (a runner sends SIGKILL 2.5 s after SIGTERM; slack for 2 cores). */
const SIGTERM_EXIT_MS = 10_000

/**
 * The executor: notes its start (`start T1 <attempt> <run>`), waits SLOW_MS, writes `42` to each declared file and
 * notes its end. RUN_TAG numbers the runs of one issue, so a line belongs to the run that started the executor even
 * when the executor of a SIGKILLed run (in a process group of its own) outlives it.
 */
const EXECUTOR = `
const fs = require('node:fs')
const path = require('node:path')
const task = JSON.parse(fs.readFileSync(process.env.CONVERGE_TASK_FILE, 'utf8'))
const note = (what) => fs.appendFileSync(process.env.RUN_LOG, what + ' ' + task.id + ' ' + process.env.CONVERGE_ATTEMPT + ' ' + process.env.RUN_TAG + '\\n')
note('start')
setTimeout(() => {
  for (const file of task.files) {
    fs.mkdirSync(path.dirname(file.path), { recursive: true })
    fs.writeFileSync(file.path, '42\\n')
  }
  note('done')
}, Number(process.env.SLOW_MS || 0))
`
/** Two waves: T1, T2, T3 side by side (two at a time), then T4 (after T1 and T2) and T5 (after T3). */
const PLAN = answerPlan([
  answerTask('T1', 'src/a.txt'), answerTask('T2', 'src/b.txt'), answerTask('T3', 'src/c.txt'),
  answerTask('T4', 'src/d.txt', ['T1', 'T2']), answerTask('T5', 'src/e.txt', ['T3']),
])
const ISSUE_BODY = issueBodyWithPlan(PLAN)

type TriggerKind = (typeof TRIGGERS)[number]
/** When to kill: once `at` requests / ms / pushes / executor starts of the run were seen, then after `thenMs`. */
interface Trigger {
  kind: TriggerKind
  at: number
  thenMs: number
}

/** What one uninterrupted run measures: the ranges kill points are drawn from. */
interface Calibration {
  requests: number
  durationMs: number
}

const counts = {
  runs: 0, kills: 0, sigterm: 0, sigkill: 0, missed: 0, cases: 0,
  byTrigger: Object.fromEntries(TRIGGERS.map((kind) => [kind, 0])) as Record<TriggerKind, number>,
  minRequests: Infinity, maxRequests: 0, recordedComplete: 0, runAgain: 0, reruns: 0, rerunsCompleted: 0,
  slowestSigtermExitMs: 0, stuckGitBackends: 0,
}
const failures: string[] = []

describe('kill and resume (dist/index.js against the API emulator)', () => {
  let gh: Emulator
  let calibration: Calibration
  /** The emulator's own errors while a killed run's requests were cut short: expected, not violations. */
  const cutShort = new Set<Violation>()

  beforeAll(async () => {
    gh = await startAnswerRepo(EXECUTOR)
  })
  afterAll(async () => {
    const requests = counts.kills > counts.missed ? `kills at ${counts.minRequests}–${counts.maxRequests} requests into the run` : 'no kills landed'
    const triggers = TRIGGERS.map((kind) => `${counts.byTrigger[kind]} ${kind}`).join(', ')
    console.log(
      `kill-and-resume (CONVERGE_SUITE_SIZE=${SIZE}): ${counts.runs} runs, ${counts.kills} faults injected ` +
        `(${counts.sigterm} SIGTERM, ${counts.sigkill} SIGKILL; triggers: ${triggers}; ${counts.missed} runs finished before their kill point), ` +
        `${counts.cases} inputs tried (issues), ${requests}, ${counts.recordedComplete} tasks recorded complete at the kill, ` +
        `${counts.runAgain} run again; ${counts.rerunsCompleted}/${counts.reruns} reruns completed; ` +
        `slowest exit after SIGTERM ${(counts.slowestSigtermExitMs / 1000).toFixed(1)} s; ` +
        `${counts.stuckGitBackends} emulator git backends left hanging by a killed push; ${failures.length} failures found`,
    )
    if (failures.length) console.log(failures.slice(0, 20).join('\n'))
    await disposeRuns()
    try {
      expect(gh?.violations.filter((v) => !cutShort.has(v)) ?? []).toEqual([])
    } finally {
      await gh?.close()
    }
  })

  const runLogOf = (n: number) => `${gh.repoDir}.ISS-${n}.runs.log`
  const logLines = async (n: number) => (await readFile(runLogOf(n), 'utf8').catch(() => '')).trim().split('\n').filter(Boolean)
  const execute = (n: number, tag: number, slowMs: number, kill?: { signal: AbortSignal; with: NodeJS.Signals }) => {
    counts.runs++
    return runAction({
      gh,
      event: issueCommentEvent({ gh, issue: n, body: '/converge execute', sender: 'alice' }),
      inputs: { 'executor-command': 'node tools/executor.js', 'max-parallel': '2', 'max-iterations': '2' },
      // Every run of an issue is a re-run of one workflow run (GitHub keeps GITHUB_RUN_ID): a killed run still holds
      // the plan (one execute at a time), and only its own re-run takes it over at once.
      env: { GITHUB_SERVER_URL: gh.url, RUN_LOG: runLogOf(n), RUN_TAG: String(tag), SLOW_MS: String(slowMs), GITHUB_RUN_ID: String(4_000_000 + n) },
      ...(kill ? { kill: kill.signal, killSignal: kill.with } : {}),
    })
  }
  /** A new issue (issues and pull requests share numbers), planned and approved; its number. */
  const planAndApprove = async () => {
    const n = gh.seed.issue({ title: 'Write the answers', labels: ['converge:plan'], body: ISSUE_BODY }).number
    counts.runs += 2
    await runAction({ gh, event: issueLabeledEvent({ gh, issue: n, label: 'converge:plan', sender: 'alice' }) })
    const approved = await runAction({ gh, event: issueCommentEvent({ gh, issue: n, body: '/converge approve', sender: 'alice' }) })
    if (approved.outputs['quality-gate'] !== 'pass') throw new Error(`ISS-${n}: the plan was not approved: ${approved.stdout.slice(-2000)}`)
    return n
  }
  const record = async (n: number): Promise<ExecutionRecord | undefined> => {
    const text = await gh.state.readFile(STATE, `.converge/issues/${n}/execution.json`)
    return text ? ExecutionRecordSchema.parse(JSON.parse(text)) : undefined
  }
  const workCommits = async (n: number) => {
    if ((await gh.state.branchHead(`converge/issue-${n}`)) === null) return []
    const { stdout } = await runGit(['log', '--format=%s', `main..converge/issue-${n}`], { cwd: gh.repoDir })
    return stdout.trim().split('\n').filter(Boolean).reverse()
  }
  const workPushes = (n: number) => gh.pushes.filter((p) => p.refs.some((r) => r.ref === `refs/heads/converge/issue-${n}`)).length
  const executorStarts = async (n: number, tag: number) => (await logLines(n)).filter((l) => l.startsWith('start ') && l.endsWith(` ${tag}`)).length

  /**
   * How many of this emulator's `git http-backend` processes outlive a killed push by more than a grace period (the
   * emulator ends those of a client that went away; one left would hold its push lock, and every later push would
   * hang). Found through /proc by their GIT_PROJECT_ROOT, which is this emulator's own.
   */
  async function abandonedGitBackends(): Promise<number> {
    const root = `GIT_PROJECT_ROOT=${dirname(gh.repoDir)}\0`
    const backends = async () => {
      let count = 0
      for (const entry of await readdir('/proc').catch(() => [])) {
        if (/^\d+$/.test(entry) && (await readFile(`/proc/${entry}/environ`, 'utf8').catch(() => '')).includes(root)) count += 1
      }
      return count
    }
    for (let waited = 0; waited < 2000; waited += 50) {
      if ((await backends()) === 0) return 0
      await delay(50)
    }
    return backends()
  }

  /** Runs `execute` and kills it when `trigger` fires; resolves with the run and what the kill hit. */
  async function killedRun(n: number, tag: number, slowMs: number, signal: NodeJS.Signals, trigger: Trigger) {
    const kill = new AbortController()
    const base = { requests: gh.requests.length, pushes: workPushes(n), violations: gh.violations.length, checkRuns: new Set(gh.state.checkRuns().map((c) => c.id)) }
    let exited = false
    let killedAt: { ms: number; requests: number } | undefined
    const running = execute(n, tag, slowMs, { signal: kill.signal, with: signal }).finally(() => {
      exited = true
    })
    const watch = (async () => {
      let firstRequestAt: number | undefined
      for (;;) {
        if (exited) return
        const requests = gh.requests.length - base.requests
        if (requests > 0) firstRequestAt ??= performance.now()
        const seen = trigger.kind === 'requests' ? requests
          : trigger.kind === 'delay' ? (firstRequestAt === undefined ? -1 : performance.now() - firstRequestAt)
          : trigger.kind === 'push' ? workPushes(n) - base.pushes
          : await executorStarts(n, tag)
        if (seen >= trigger.at) break
        await delay(POLL_MS)
      }
      if (trigger.thenMs > 0) await delay(trigger.thenMs)
      if (exited) return
      killedAt = { ms: performance.now(), requests: gh.requests.length - base.requests }
      kill.abort()
    })()
    const run = await running
    await watch
    const exitMs = killedAt ? performance.now() - killedAt.ms : 0
    if (killedAt) {
      const stuck = await abandonedGitBackends()
      counts.stuckGitBackends += stuck
      if (stuck) failures.push(`ISS-${n}: ${stuck} git backends of the emulator still running 2 s after the push's client was killed`)
      // What the emulator reports of requests a killed client cut short is its own error, not the action's.
      for (const v of gh.violations.slice(base.violations)) if (v.kind === 'emulator-error') cutShort.add(v)
    }
    const newCheckRuns = gh.state.checkRuns().filter((c) => !base.checkRuns.has(c.id))
    return { run, killedAt, exitMs, newCheckRuns }
  }

  it('measures one uninterrupted run (the ranges of the kill points)', async () => {
    const n = await planAndApprove()
    const base = gh.requests.length
    const started = performance.now()
    const run = await execute(n, 1, 200)
    expect(run.outputs).toMatchObject({ status: 'completed', 'tasks-completed': '5' })
    calibration = { requests: gh.requests.length - base, durationMs: performance.now() - started }
    expect(workPushes(n)).toBe(TASKS.length)
    expect(await executorStarts(n, 1)).toBe(TASKS.length)
    expect((await auditStateBranch(gh)).problems).toEqual([])
  })

  it(`kills execute ${KILLS} times at random points; every rerun finishes the work and runs no recorded task again`, async () => {
    expect(calibration, 'the uninterrupted run').toBeDefined()
    for (let i = 0; ONLY_SEED !== undefined ? i < 1 : counts.kills < KILLS; i++) {
      const seed = ONLY_SEED ?? SEED + i
      const rng = mulberry32(seed)
      counts.cases++
      const replay = `CONVERGE_KILL_SEED=${seed}@${FIRST_KILL + counts.kills}`
      // One or two kills on the issue: the first run, then the resumed one.
      const kills = Math.min(ONLY_SEED !== undefined ? 2 : KILLS - counts.kills, rng() < 0.5 ? 1 : 2)
      const { n, problems } = await killCase(rng, kills).catch((error: Error) => ({ n: 0, problems: [`threw ${error.stack ?? error.message}`] }))
      for (const problem of problems) failures.push(`${replay} (ISS-${n}): ${problem}`)
    }
    expect(failures).toEqual([])
    expect(counts.missed, `kills that never landed, of ${counts.kills}`).toBeLessThanOrEqual(Math.floor(counts.kills / 4))
  }, KILLS * 60_000) // a guard against a hang: about 8 s a kill alone, several times that on a loaded machine

  /**
   * The tasks whose work is not on the work branch yet. A task a kill caught between its push and its recording is
   * not pushed again by the next run, so a resumed run has only these pushes (and executor runs) to be killed on.
   */
  async function tasksNotPushed(n: number): Promise<number> {
    if ((await gh.state.branchHead(`converge/issue-${n}`)) === null) return TASKS.length
    let unpushed = 0
    for (const task of PLAN.tasks) if ((await gh.state.readFile(`converge/issue-${n}`, task.files[0]!.path)) === null) unpushed++
    return unpushed
  }

  /** One issue: plan, approve, `kills` killed runs, then the rerun. What went wrong, if anything. */
  async function killCase(rng: () => number, kills: number): Promise<{ n: number; problems: string[] }> {
    const problems: string[] = []
    const slowMs = 100 + Math.floor(rng() * 150)
    const n = await planAndApprove()
    const commitsAt = new Map<string, string>()
    /** The tasks recorded complete when the last killed run ended. */
    let recordedAtKill = new Set<string>()
    /** Runs that must not start the executor for tasks recorded complete before them (checked at the end). */
    const runChecks: { from: number; to: number; recorded: Set<string>; what: string }[] = []
    let tag = 0

    for (let k = 0; k < kills; k++) {
      tag++
      const index = FIRST_KILL + counts.kills
      // Triggers take turns, and each one meets both signals.
      const kind = TRIGGERS[index % TRIGGERS.length]!
      const signal: NodeJS.Signals = (index + Math.floor(index / TRIGGERS.length)) % 2 === 0 ? 'SIGTERM' : 'SIGKILL'
      const trigger = drawTrigger(rng, kind, calibration, { left: TASKS.length - recordedAtKill.size, unpushed: await tasksNotPushed(n) }, slowMs)
      const what = `run ${tag} (${signal} on ${kind} ${Math.round(trigger.at)}+${trigger.thenMs} ms, SLOW_MS ${slowMs})`
      const { run, killedAt, exitMs, newCheckRuns } = await killedRun(n, tag, slowMs, signal, trigger)
      counts.kills++
      counts.byTrigger[kind]++
      if (signal === 'SIGTERM') counts.sigterm++
      else counts.sigkill++
      if (!killedAt) {
        // A kill that never landed tested nothing. The first run's kill points are drawn within the measured
        // uninterrupted run, so a miss there means the draw is wrong; a resumed run's length depends on where the
        // kill before it landed, so its misses are counted, and the suite fails when over a quarter of all kills miss.
        counts.missed++
        if (k === 0) problems.push(`${what}: the run finished before its kill point (the kill never landed)`)
        else console.log(`${what}: the resumed run finished before its kill point (counted as missed)`)
      } else {
        counts.minRequests = Math.min(counts.minRequests, killedAt.requests)
        counts.maxRequests = Math.max(counts.maxRequests, killedAt.requests)
      }
      if (run.timedOut) problems.push(`${what}: the action did not exit (timed out)`)
      if (killedAt && signal === 'SIGTERM') {
        counts.slowestSigtermExitMs = Math.max(counts.slowestSigtermExitMs, exitMs)
        if (exitMs > SIGTERM_EXIT_MS) problems.push(`${what}: exited ${Math.round(exitMs)} ms after SIGTERM`)
      }
      if (killedAt && signal === 'SIGKILL' && run.signal !== 'SIGKILL') problems.push(`${what}: ended by ${run.signal ?? `exit ${run.exitCode}`}, not SIGKILL`)

      for (const p of (await auditStateBranch(gh)).problems) problems.push(`${what}: state branch after the kill: ${p}`)
      const rec = await record(n)
      const statuses = Object.entries(rec?.tasks ?? {}).map(([id, r]) => [id, r.status] as const)
      const notCompleted = statuses.filter(([, status]) => status !== 'completed')
      if (notCompleted.length)
        problems.push(`${what}: recorded ${notCompleted.map(([id, s]) => `${id} ${s}`).join(', ')} (nothing fails here): ` +
          `${rec?.tasks[notCompleted[0]![0]]?.error}`)
      // The action's SIGINT/SIGTERM handlers are in place before its first request (src/action/run.ts): a SIGTERM
      // after a request of the run reached the emulator must be handled, the process ending on its own.
      if (killedAt && signal === 'SIGTERM' && killedAt.requests > 0 && run.signal !== null)
        problems.push(`${what}: ended by ${run.signal} ${killedAt.requests} requests into the run, not on its own (the signal was not handled)`)
      if (killedAt && signal === 'SIGTERM' && run.signal === null) {
        // It handled the signal: the run is recorded as ended, and its check run is complete.
        if (rec?.status === 'running') problems.push(`${what}: exited on its own (exit ${run.exitCode}), leaving the execution recorded as running: ${lastWords(run)}`)
        const check = gh.state.checkRuns().find((c) => c.id === Number(run.outputs['check-run-id']))
        if (run.outputs['check-run-id'] && check?.status !== 'completed') problems.push(`${what}: exited on its own, leaving its check run ${check?.status}`)
        for (const c of newCheckRuns.filter((c) => c.status !== 'completed')) problems.push(`${what}: exited on its own, leaving check run ${c.id} (${c.name}) ${c.status}`)
      }
      runChecks.push({ from: tag, to: tag, recorded: recordedAtKill, what })
      recordedAtKill = new Set(statuses.filter(([, status]) => status === 'completed').map(([id]) => id))
      for (const id of recordedAtKill) {
        const hash = rec!.tasks[id]!.commit_hash
        if (commitsAt.has(id) && commitsAt.get(id) !== hash) problems.push(`${what}: ${id}'s recorded commit changed from ${commitsAt.get(id)} to ${hash}`)
        if (hash) commitsAt.set(id, hash)
      }
      if (killedAt) counts.recordedComplete += recordedAtKill.size
    }

    // The rerun, not killed, must finish the first time; two more tries tell a slow convergence from none.
    for (let attempt = 1; attempt <= 3; attempt++) {
      tag++
      counts.reruns++
      const rerun = await execute(n, tag, slowMs)
      if (rerun.outputs.status === 'completed') {
        counts.rerunsCompleted++
        break
      }
      problems.push(`rerun ${tag}: status ${rerun.outputs.status}, exit ${rerun.exitCode ?? rerun.signal}${rerun.timedOut ? ' (timed out)' : ''}: ${lastWords(rerun)}`)
    }
    runChecks.push({ from: kills + 1, to: Infinity, recorded: recordedAtKill, what: 'the rerun' })
    for (const c of runChecks) problems.push(...(await runAgain(n, c.from, c.to, c.recorded, c.what)))

    const final = await record(n)
    const notDone = TASKS.filter((id) => final?.tasks[id]?.status !== 'completed')
    if (final?.status !== 'completed' || notDone.length) problems.push(`after the rerun: execution ${final?.status}, not completed: ${notDone.join(', ')}`)
    for (const [id, hash] of commitsAt) {
      if (final?.tasks[id]?.commit_hash !== hash) problems.push(`after the rerun: ${id}'s commit changed from ${hash} to ${final?.tasks[id]?.commit_hash}`)
    }
    const commits = await workCommits(n)
    const subjects = TASKS.map((id, i) => `${id}: Write src/${'abcde'[i]}.txt (ISS-${n})`)
    if (commits.length !== TASKS.length || subjects.some((s) => !commits.includes(s)))
      problems.push(`converge/issue-${n} holds ${commits.length} commits: ${commits.join(' | ')}`)
    if (!gh.state.pulls().some((p) => p.pull!.headRef === `converge/issue-${n}`)) problems.push(`no pull request for converge/issue-${n}`)
    for (const p of (await auditStateBranch(gh)).problems) problems.push(`state branch after the rerun: ${p}`)
    return { n, problems: problems.map((p) => p.replace(/\s+/g, ' ').slice(0, 1500)) }
  }

  /**
   * Executor starts by runs `fromTag`..`toTag` of tasks in `recorded` (complete before those runs started): each one
   * is a task run again after it was recorded complete.
   */
  async function runAgain(n: number, fromTag: number, toTag: number, recorded: Set<string>, what: string): Promise<string[]> {
    const again = (await logLines(n))
      .map((line) => line.split(' '))
      .filter(([kind, id, , runTag]) => kind === 'start' && recorded.has(id!) && Number(runTag) >= fromTag && Number(runTag) <= toTag)
    counts.runAgain += again.length
    return again.map(([, id, attempt, runTag]) => `${what}: ${id} (recorded complete) ran again in run ${runTag}, attempt ${attempt}`)
  }
})

/** What a run said last: its errors, else the end of its stderr, else its last lines of output. */
function lastWords(run: { stdout: string; stderr: string; errors: string[] }): string {
  const lastLines = run.stdout.split('\n').filter((l) => !l.startsWith('::debug::')).slice(-8).join(' / ')
  return run.errors.join('; ') || run.stderr.slice(-500) || lastLines
}

/**
 * A kill point of `kind` anywhere in a run that has `left` of the plan's tasks to finish, `unpushed` of them with no
 * work on the branch yet (a resumed run is shorter: its ranges shrink with the work, though not below the fixed cost
 * of starting and reporting; it pushes, and starts the executor, for the unpushed tasks only).
 */
function drawTrigger(rng: () => number, kind: TriggerKind, c: Calibration, { left, unpushed }: { left: number; unpushed: number }, slowMs: number): Trigger {
  const share = Math.max(0.4, left / TASKS.length)
  switch (kind) {
    case 'requests':
      return { kind, at: Math.floor(rng() * c.requests * share), thenMs: 0 }
    case 'delay':
      return { kind, at: Math.floor(rng() * c.durationMs * share), thenMs: 0 }
    case 'push':
      // Right after a push of the work branch: between a task's commit and its recording.
      return { kind, at: 1 + Math.floor(rng() * Math.max(1, unpushed)), thenMs: Math.floor(rng() * 20) }
    case 'executor':
      // While the executor runs, or the verification after it.
      return { kind, at: 1 + Math.floor(rng() * Math.max(1, unpushed)), thenMs: Math.floor(rng() * (slowMs + 200)) }
  }
}
