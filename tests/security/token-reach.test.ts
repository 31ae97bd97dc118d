/**
 * Can a command Converge runs reach the repository token? Through dist/index.js as a runner runs it, with a
 * checkout that kept its credentials the way actions/checkout does by default (v6: an includeIf'd file under
 * RUNNER_TEMP) plus what other steps leave (a `store` credential helper, the token in an insteadOf base and in
 * the remote URL), an executor and a planner command try every way we know to reach the token and dump what
 * they see; the test looks for the token (raw, and in the base64 form git sends) in each dump, and prints the
 * outcome of each way next to the expected one as a table.
 *
 * The one way that stays open is the documented limit: the token is in the memory of Converge's process (its
 * client needs it), and where ptrace is not restricted a process of the same user can read that memory.
 */
import { randomBytes } from 'node:crypto'
import { existsSync } from 'node:fs'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runGit } from '../../src/git/git.js'
import { answerPlan, answerTask, issueBodyWithPlan, startAnswerRepo } from '../support/answer-plans.js'
import type { Emulator } from '../support/emulator/index.js'
import { issueCommentEvent, issueLabeledEvent } from '../support/events.js'
import { persistCredentials } from '../support/persisted-credentials.js'
import { disposeRuns, runAction, type ActionRun, type RunnerPaths } from '../support/runner.js'

/**
 * The probe, as tools/executor.js: run as the executor (`$CONVERGE_TASK_FILE`) or as the planner command
 * (`$CONVERGE_PLAN_FILE`). It writes what each way shows it to `$REACH_OUT/<role>/<way>.txt` (`$REACH_ROLE` names
 * the role of a control run), then does its job
 * (the executor writes 42 to its task's file; the planner tries to edit README.md, then writes the plan).
 */
const PROBE = String.raw`
const fs = require('node:fs')
const path = require('node:path')
const cp = require('node:child_process')
const role = process.env.REACH_ROLE || (process.env.CONVERGE_PLAN_FILE ? 'planner' : 'executor')
const out = path.join(process.env.REACH_OUT, role)
fs.mkdirSync(out, { recursive: true })
const save = (way, text) => fs.writeFileSync(path.join(out, way + '.txt'), String(text))
const read = (file) => { try { return fs.readFileSync(file, 'latin1') } catch (e) { return '(' + e.code + ' ' + file + ')' } }
const run = (cmd, args, options = {}) => {
  const r = cp.spawnSync(cmd, args, { encoding: 'utf8', ...options, env: { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_ASKPASS: '', ...options.env } })
  return 'exit ' + r.status + '\n' + r.stdout + '\n' + r.stderr
}
const server = new URL(process.env.GITHUB_SERVER_URL)
const parentOf = (pid) => { const s = read('/proc/' + pid + '/stat'); return Number(s.slice(s.lastIndexOf(')') + 2).split(' ')[1]) || 0 }
const ancestors = []
for (let pid = process.ppid; pid > 1; pid = parentOf(pid)) ancestors.push(pid)
const converge = ancestors.find((pid) => read('/proc/' + pid + '/cmdline').includes('dist/index.js'))

save('environment', JSON.stringify(process.env))
save('git-config', run('git', ['config', '--list', '--show-origin', '--includes']) + read('.git/config'))
const includes = run('git', ['config', '--get-regexp', '^include']).split('\n').slice(1).filter(Boolean).map((line) => line.slice(line.indexOf(' ') + 1))
save('include-files', includes.map((file) => file + '\n' + read(file)).join('\n') || '(no include entries)')
const helpers = run('git', ['config', '--get-all', 'credential.helper'])
const stores = [...helpers.matchAll(/--file[= ](\S+)/g)].map((m) => m[1])
save('credential-helpers', helpers + [path.join(process.env.HOME || '/nonexistent', '.git-credentials'), ...stores].map(read).join('\n'))
save('credential-fill', run('git', ['credential', 'fill'], { input: 'protocol=' + server.protocol.slice(0, -1) + '\nhost=' + server.host + '\n\n' }))
save('parent-environ', ancestors.map((pid) => pid + ' ' + read('/proc/' + pid + '/cmdline').replace(/\0/g, ' ') + '\n' + read('/proc/' + pid + '/environ')).join('\n'))
save('all-environ', fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d)).map((d) => read('/proc/' + d + '/environ')).join('\n'))
const files = []
const walk = (dir) => { for (const e of fs.readdirSync(dir, { withFileTypes: true })) { const p = path.join(dir, e.name); if (e.isDirectory()) walk(p); else files.push(p + '\n' + read(p)) } }
walk(process.env.RUNNER_TEMP)
save('runner-temp', files.join('\n'))
save('event-file', read(process.env.GITHUB_EVENT_PATH))
save('push', run('git', ['push', server.origin + server.pathname.replace(/\/$/, '') + '/' + process.env.GITHUB_REPOSITORY + '.git', 'HEAD:refs/heads/pwned-' + role]))

// Converge's memory: the readable, writable mappings, scanned for what a GitHub token looks like.
let memory = 'no Converge process among the ancestors'
if (converge) {
  const found = new Set()
  let fd
  try {
    fd = fs.openSync('/proc/' + converge + '/mem', 'r')
    const chunk = Buffer.alloc(1 << 20)
    for (const line of read('/proc/' + converge + '/maps').split('\n')) {
      const m = /^([0-9a-f]+)-([0-9a-f]+) rw/.exec(line)
      if (!m) continue
      for (let at = parseInt(m[1], 16), end = parseInt(m[2], 16); at < end; at += chunk.length - 64) {
        let n = 0
        try { n = fs.readSync(fd, chunk, 0, Math.min(chunk.length, end - at), at) } catch { break }
        for (const t of chunk.subarray(0, n).toString('latin1').match(/gh[sp]_[A-Za-z0-9]{20,}/g) || []) found.add(t)
      }
    }
    memory = 'read /proc/' + converge + '/mem\n' + [...found].join('\n')
  } catch (e) {
    memory = 'could not read /proc/' + converge + '/mem: ' + e.code
  } finally {
    if (fd !== undefined) fs.closeSync(fd)
  }
}
save('parent-memory', memory)

if (!process.env.CONVERGE_PLAN_FILE) {
  const task = JSON.parse(fs.readFileSync(process.env.CONVERGE_TASK_FILE, 'utf8'))
  for (const file of task.files) { fs.mkdirSync(path.dirname(file.path), { recursive: true }); fs.writeFileSync(file.path, '42\n') }
} else {
  let edit = 'edited'
  try { fs.appendFileSync('README.md', 'planner was here\n') } catch (e) { edit = 'could not edit: ' + e.code }
  save('edit-tracked-file', edit)
  fs.writeFileSync(process.env.CONVERGE_PLAN_FILE, fs.readFileSync(path.join(process.env.REACH_OUT, 'plan.json')))
}
`

/** Each way, what the test expects of it, and how to say its outcome. */
const WAYS = [
  ['environment', 'its own environment'],
  ['git-config', "the checkout's git config (includes followed)"],
  ['include-files', 'the files includeIf entries name'],
  ['credential-helpers', 'credential helpers and ~/.git-credentials'],
  ['credential-fill', 'git credential fill for the server'],
  ['parent-environ', "/proc/<pid>/environ of its ancestors (Converge's among them)"],
  ['all-environ', '/proc/<pid>/environ of every process'],
  ['runner-temp', 'every file under RUNNER_TEMP'],
  ['event-file', 'the event payload (GITHUB_EVENT_PATH)'],
  ['push', 'git push with what the checkout configures'],
  ['parent-memory', "/proc/<pid>/mem of Converge's process"],
] as const

const PLAN = answerPlan([answerTask('T1', 'src/a.txt')])
const EXECUTOR_ISSUE = 7
const PLANNER_ISSUE = 8
/** The control: an executor run with `persisted-credentials: keep`, to show the probe does find what is there. */
const KEEP_ISSUE = 9
const ROLES = ['executor', 'planner', 'executor-keep'] as const

describe('how far a command gets towards the token (dist/index.js, a checkout that persisted credentials)', () => {
  const token = `ghs_reach${randomBytes(16).toString('hex')}`
  const encoded = Buffer.from(`x-access-token:${token}`).toString('base64')
  let gh: Emulator
  let reachOut: string
  let executorRun: ActionRun
  let plannerRun: ActionRun
  let keepRun: ActionRun
  let readmeAfterPlanner: string
  /** The files under RUNNER_TEMP the checkout step wrote, by issue. */
  const credentialFiles = new Map<number, string[]>()

  /** What actions/checkout (v6, persist-credentials: true) and other steps leave, before Converge's step. */
  const persisted = (issue: number) => async (paths: RunnerPaths) => {
    await runGit(['remote', 'set-url', 'origin', gh.gitUrl], { cwd: paths.workspace })
    const written = await persistCredentials({ workspace: paths.workspace, runnerTemp: paths.temp, serverUrl: gh.url, token, style: 'v6', extras: true })
    credentialFiles.set(issue, [written.credentialsFile!, written.storeFile!])
  }
  const run = (issue: number, body: string, inputs: Record<string, string> = {}, env: Record<string, string> = {}) =>
    runAction({
      gh, event: issueCommentEvent({ gh, issue, body, sender: 'alice' }),
      inputs: { 'github-token': token, 'executor-command': 'node tools/executor.js', ...inputs },
      env: { GITHUB_SERVER_URL: gh.url, REACH_OUT: reachOut, ANTHROPIC_API_KEY: 'sk-ant-planner-key-0123456789', ...env },
      prepare: persisted(issue),
    })
  const planAndApprove = async (issue: number) => {
    await runAction({ gh, event: issueLabeledEvent({ gh, issue, label: 'converge:plan', sender: 'alice' }), inputs: { 'github-token': token } })
    await runAction({ gh, event: issueCommentEvent({ gh, issue, body: '/converge approve', sender: 'alice' }), inputs: { 'github-token': token } })
  }

  beforeAll(async () => {
    reachOut = await mkdtemp(join(tmpdir(), 'converge-reach-'))
    gh = await startAnswerRepo(PROBE)
    await writeFile(join(reachOut, 'plan.json'), JSON.stringify(PLAN))
    gh.seed.issue({ number: EXECUTOR_ISSUE, title: 'Write the answer', labels: ['converge:plan'], body: issueBodyWithPlan(PLAN) })
    gh.seed.issue({ number: PLANNER_ISSUE, title: 'Plan the answer', labels: [], body: 'Write 42 to `src/a.txt`.' })
    gh.seed.issue({ number: KEEP_ISSUE, title: 'Write the answer, credentials kept', labels: ['converge:plan'], body: issueBodyWithPlan(PLAN) })

    await planAndApprove(EXECUTOR_ISSUE)
    executorRun = await run(EXECUTOR_ISSUE, '/converge execute')
    plannerRun = await run(PLANNER_ISSUE, '/converge plan', { planner: 'command', 'planner-command': 'node tools/executor.js', 'planner-env': 'REACH_OUT ANTHROPIC_API_KEY' })
    readmeAfterPlanner = await readFile(join(plannerRun.workspace, 'README.md'), 'utf8')
    await planAndApprove(KEEP_ISSUE)
    keepRun = await run(KEEP_ISSUE, '/converge execute', { 'persisted-credentials': 'keep' }, { REACH_ROLE: 'executor-keep' })
  }, 180_000)
  afterAll(async () => {
    await disposeRuns()
    await rm(reachOut, { recursive: true, force: true })
    try { gh.expectNoViolations() } finally { await gh.close() }
  })

  const dump = (role: string, way: string) => readFile(join(reachOut, role, `${way}.txt`), 'latin1')
  const holdsToken = (text: string) => text.includes(token) || text.includes(encoded)
  const pushedAs = (role: string) => gh.pushes.some((p) => p.refs.some((r) => r.ref === `refs/heads/pwned-${role}`))

  it('prints what each way gave the executor and the planner, against what is expected', async () => {
    const header = ['way', 'executor', 'planner', 'expected', 'control: executor, persisted-credentials: keep']
    const rows: string[][] = []
    const outcomes: Record<string, Record<string, boolean>> = Object.fromEntries(ROLES.map((role) => [role, {}]))
    const say = (way: string, text: string, reached: boolean) =>
      way === 'push' ? (reached ? 'PUSHED' : 'refused')
        : way === 'parent-memory' ? (reached ? 'TOKEN (known limit)' : text.startsWith('could not') ? 'not readable' : 'no token')
          : reached ? 'TOKEN' : 'no token'
    for (const [way, what] of WAYS) {
      const cells: Record<string, string> = {}
      for (const role of ROLES) {
        const text = await dump(role, way)
        const reached = way === 'push' ? pushedAs(role) : holdsToken(text)
        outcomes[role]![way] = reached
        cells[role] = say(way, text, reached)
      }
      const expected = way === 'parent-memory' ? 'limit: readable where ptrace is not restricted' : way === 'push' ? 'refused' : 'no token'
      rows.push([what, cells.executor!, cells.planner!, expected, cells['executor-keep']!])
    }
    const plannerEdit = `${await dump('planner', 'edit-tracked-file')}; put back by Converge: ${readmeAfterPlanner === '# demo\n' ? 'yes' : 'NO'}`
    rows.push(['edit a tracked file (README.md)', 'allowed (its job)', plannerEdit, 'put back, planning stopped', 'allowed (its job)'])
    const widths = header.map((_, i) => Math.max(...[header, ...rows].map((r) => r[i]!.length)))
    const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`
    console.log(['Token reach (a checkout that persisted credentials, through dist/index.js):', line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n'))

    for (const role of ['executor', 'planner'])
      for (const [way] of WAYS) if (way !== 'parent-memory') expect(outcomes[role]![way], `${role}: ${way}`).toBe(false)
    // The control finds the token where the checkout step left it, and pushes with it: the probe is not blind.
    expect(outcomes['executor-keep']).toMatchObject({
      'git-config': true, 'include-files': true, 'credential-helpers': true, 'credential-fill': true, 'runner-temp': true, push: true,
      environment: false, 'parent-environ': false, 'all-environ': false, 'event-file': false,
    })
  })

  it('the executor sees no token, the log says what Converge removed, and Converge still pushes', async () => {
    expect(executorRun.errors).toEqual([])
    expect(executorRun.outputs).toMatchObject({ status: 'completed', 'tasks-completed': '1' })
    const removal = executorRun.warnings.filter((w) => w.includes('persisted'))
    expect(removal).toHaveLength(1)
    expect(removal[0]).toMatch(/^Converge: Removed the token actions\/checkout persisted before running commands \(.*\); nothing is restored, so a later step that needs git credentials must bring its own\. Set persist-credentials: false on actions\/checkout to silence this\.$/)
    for (const part of [
      /the Authorization header http\.http:\/\/127\.0\.0\.1:\d+\/\.extraheader in \$RUNNER_TEMP\/git-credentials-[0-9a-f-]+\.config/,
      /the user and password in remote\.origin\.url \(http:\/\/\*\*\*:\*\*\*@127\.0\.0\.1:\d+\/octo-org\/demo\.git\) in \.git\/config/,
      /the credential helper credential\.helper in \.git\/config/,
      /the credential store in \$RUNNER_TEMP\/git-credentials-store/,
      /url\.http:\/\/\*\*\*:\*\*\*@127\.0\.0\.1:\d+\/\.insteadOf in \.git\/config/,
    ]) expect(removal[0]).toMatch(part)
    expect(executorRun.stdout).toMatch(/Converge: removed the Authorization header http\.http:\/\/127\.0\.0\.1:\d+\/\.extraheader \(\$RUNNER_TEMP\/git-credentials-/)
    expect(executorRun.stdout).toMatch(/Converge: wrote over GITHUB_OUTPUT, GITHUB_STEP_SUMMARY, GITHUB_STATE, GITHUB_ENV, GITHUB_PATH, INPUT_GITHUB-TOKEN, ANTHROPIC_API_KEY in \/proc\/\d+\/environ, so the commands it runs cannot read the step's secrets there/)
    // The runs that ran commands deleted what the checkout step had put under RUNNER_TEMP; keep left it.
    for (const issue of [EXECUTOR_ISSUE, PLANNER_ISSUE]) for (const file of credentialFiles.get(issue)!) expect(existsSync(file), file).toBe(false)
    for (const file of credentialFiles.get(KEEP_ISSUE)!) expect(existsSync(file), file).toBe(true)
    // The comment says it too, and Converge's own push of the work branch went through.
    const sticky = gh.state.comments(EXECUTOR_ISSUE).find((c) => c.body.startsWith(`<!-- converge:ISS-${EXECUTOR_ISSUE} -->`))!.body
    expect(sticky).toContain('> ⚠️ Removed the token actions/checkout persisted before running commands')
    expect(gh.pushes.map((p) => p.refs.map((r) => r.ref)).flat()).toContain(`refs/heads/converge/issue-${EXECUTOR_ISSUE}`)
    expect(gh.pushes.map((p) => p.refs.map((r) => r.ref)).flat().filter((r) => r.includes('pwned'))).toEqual(['refs/heads/pwned-executor-keep'])
    // Only the runner's mask commands name it (the runner reads them and never shows them).
    const shown = executorRun.stdout.split('\n').filter((l) => !l.startsWith('::add-mask::')).join('\n')
    expect(holdsToken(shown + executorRun.stderr + sticky)).toBe(false)
  })

  it('the planner gets only the variables planner-env lists, and its edit of a tracked file is put back', async () => {
    const env = JSON.parse(await dump('planner', 'environment')) as Record<string, string>
    expect(env.ANTHROPIC_API_KEY).toBe('sk-ant-planner-key-0123456789')
    expect(Object.keys(env).filter((k) => /TOKEN|^INPUT_|^ACTIONS_/.test(k))).toEqual([])
    expect(await dump('planner', 'edit-tracked-file')).toBe('edited')
    expect(readmeAfterPlanner).toBe('# demo\n')
    expect(plannerRun.outputs.status).toBe('failed')
    const sticky = gh.state.comments(PLANNER_ISSUE).find((c) => c.body.startsWith(`<!-- converge:ISS-${PLANNER_ISSUE} -->`))!.body
    expect(sticky).toContain('The planner command changed README.md in the checkout; Converge put the checkout back as it was and did not read its plan')
    expect(sticky).toContain('> ⚠️ Removed the token actions/checkout persisted')
  })

  it('persisted-credentials: keep leaves the credentials and says in the log and the comment that commands can read them', () => {
    expect(keepRun.outputs.status).toBe('completed')
    expect(keepRun.warnings.filter((w) => w.includes('persisted'))).toEqual([
      expect.stringMatching(/^Converge: Kept the credentials persisted in the checkout \(persisted-credentials: keep\): the commands Converge runs can read them and push with them \(.*the Authorization header http\.http:\/\/127\.0\.0\.1:\d+\/\.extraheader in \$RUNNER_TEMP\/git-credentials-/),
    ])
    const sticky = gh.state.comments(KEEP_ISSUE).find((c) => c.body.startsWith(`<!-- converge:ISS-${KEEP_ISSUE} -->`))!.body
    expect(sticky).toContain('> ⚠️ Kept the credentials persisted in the checkout (persisted-credentials: keep)')
  })
})
