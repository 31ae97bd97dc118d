/**
 * Attacks on Converge (issue 8), through dist/index.js as a runner runs it, against the API emulator: who may
 * trigger a run, edited comments and plans, shell injection through issue and plan text, paths that escape the
 * workspace, and secrets printed by the commands Converge runs.
 *
 * The executor is a scripted node process in the emulated repository (tools/executor.js); verification runs
 * tools/check.js and the plan's own commands.
 */
import { randomBytes } from 'node:crypto'
import { existsSync } from 'node:fs'
import { mkdtemp, readdir, readFile, rm, stat, symlink } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { isAbsolute, join } from 'node:path'
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest'
import { runGit } from '../../src/git/git.js'
import { startEmulator, type Emulator } from '../support/emulator/index.js'
import { issueCommentEvent, issueLabeledEvent } from '../support/events.js'
import { disposeRuns, runAction, type ActionRun } from '../support/runner.js'

const STATE = 'converge/state'
const N = 8
const R = randomBytes(6).toString('hex')
/** A file an injected shell command would create; none of them may ever exist. */
const markers = new Set<string>()
const marker = (name: string) => {
  markers.add(name)
  return `/tmp/pwned-${R}-${name}`
}

/** What the suite tried and found, printed at the end: each test is one attack, by group. */
const tally = { attacks: 0, blocked: 0, knownLimits: 0, failures: 0, groups: {} as Record<string, number> }

/**
 * Writes `42` to each declared file inside the checkout (never an absolute path, a `..` path or one through the
 * `linked` symlink: the executor is not under test there, Converge is). Logs what it saw of its environment to
 * RUN_LOG; prints the secrets it was given; tasks in LEAK_TASKS also drop them in $RUNNER_TEMP/leak.txt and fail.
 */
const EXECUTOR = `
const fs = require('node:fs')
const path = require('node:path')
const task = JSON.parse(fs.readFileSync(process.env.CONVERGE_TASK_FILE, 'utf8'))
const list = (name) => (process.env[name] || '').split(',').filter(Boolean)
for (const file of task.files) {
  const p = file.path
  if (path.isAbsolute(p) || p.split('/').includes('..') || p.startsWith('linked/')) continue
  fs.mkdirSync(path.dirname(p), { recursive: true })
  fs.writeFileSync(p, '42\\n')
}
const key = process.env.ANTHROPIC_API_KEY || ''
console.log('executor key=' + key + ' b64=' + Buffer.from(key).toString('base64') + ' token=' + (process.env.GITHUB_TOKEN || ''))
console.error('executor stderr key=' + key)
const names = Object.keys(process.env)
fs.appendFileSync(process.env.RUN_LOG, JSON.stringify({ task: task.id, attempt: process.env.CONVERGE_ATTEMPT,
  hasToken: names.some((n) => /^(GITHUB_TOKEN|GH_TOKEN)$|^INPUT_|^ACTIONS_/.test(n)),
  hasKey: key !== '' }) + '\\n')
if (list('LEAK_TASKS').includes(task.id)) {
  fs.writeFileSync(path.join(process.env.RUNNER_TEMP, 'leak.txt'), 'key=' + key + '\\nb64=' + Buffer.from(key).toString('base64') + '\\n')
  process.exit(1)
}
`
const CHECK = `
const fs = require('node:fs')
const file = process.argv[2]
const value = fs.existsSync(file) ? fs.readFileSync(file, 'utf8').trim() : '(missing)'
if (value !== '42') { console.error(file + ':1:1: error: expected 42, got ' + value); process.exit(1) }
console.log('ok ' + file)
`

interface TaskSpec { id: string; title: string; files: string[]; commands: string[]; description?: string; dependsOn?: string[] }
const task = (t: TaskSpec) => ({
  id: t.id, title: t.title, action: 'Create', description: t.description ?? `Write the answer for ${t.id}`,
  files: t.files.map((path) => ({ path, action: 'create', changes: [`Write 42 to the file`] })),
  implementation: ['Write 42 to each file'], test: { commands: t.commands },
  convergence: { criteria: ['Each file holds 42'], verification: '', definition_of_done: 'Each file holds the answer users expect' },
  depends_on: t.dependsOn ?? [],
})
const plan = (tasks: TaskSpec[]) => ({
  description: 'Write the answers', analysis: { risk: 'low', impact: 'low', complexity: 'low' }, tasks: tasks.map(task),
})
const issueBody = (p: unknown) => `Write the answers.\n\n\`\`\`json\n${JSON.stringify(p, null, 2)}\n\`\`\`\n`
/** Single quotes for a shell: the plan author quotes paths in its commands. */
const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`
const check = (file: string) => `node tools/check.js ${q(file)}`

const SIMPLE = plan([{ id: 'T1', title: 'Write a.txt', files: ['src/a.txt'], commands: [check('src/a.txt')] }])

describe('attacks (dist/index.js against the API emulator)', () => {
  let gh: Emulator
  let runLog: string
  const cleanup: string[] = []

  beforeEach(({ onTestFinished }) => {
    onTestFinished(({ task }) => {
      const group = task.suite?.name ?? 'other'
      tally.attacks += 1
      tally.groups[group] = (tally.groups[group] ?? 0) + 1
      // Here a known limit (`it.fails`) still shows its own outcome: it holds when the attack got through.
      const state = task.result?.state
      if (task.fails) tally[state === 'fail' ? 'knownLimits' : 'failures'] += 1
      else tally[state === 'pass' ? 'blocked' : 'failures'] += 1
    })
  })
  afterAll(() => {
    const groups = Object.entries(tally.groups).map(([group, n]) => `${group} ×${n}`).join(', ')
    console.log(
      `attack suite: ${tally.attacks} attacks tried (${groups}; ${markers.size} injected shell commands among them); ` +
        `${tally.blocked} blocked, ${tally.knownLimits} known limit pinned with it.fails (see docs/security.md), ` +
        `${tally.failures} failures found`,
    )
  })

  const start = async (p: unknown, title = 'Write the answers') => {
    gh = await startEmulator({ owner: 'octo-org', repo: 'demo', files: { 'README.md': '# demo\n', 'tools/executor.js': EXECUTOR, 'tools/check.js': CHECK } })
    gh.seed.user({ login: 'alice' })
    gh.seed.permission('alice', 'write')
    gh.seed.issue({ number: N, title, labels: ['converge:plan'], body: issueBody(p) })
    runLog = `${gh.repoDir}.runs.log`
  }
  afterEach(async () => {
    await disposeRuns()
    await Promise.all(cleanup.splice(0).map((p) => rm(p, { recursive: true, force: true })))
    try { gh.expectNoViolations() } finally { await gh.close() }
  })

  const comment = (body: string, options: { sender?: string; env?: Record<string, string>; inputs?: Record<string, string>; action?: 'created' | 'edited' } = {}) =>
    runAction({
      gh,
      event: issueCommentEvent({ gh, issue: N, body, sender: options.sender ?? 'alice', ...(options.action ? { action: options.action } : {}) }),
      inputs: { 'executor-command': 'node tools/executor.js', 'max-parallel': '2', 'max-iterations': '1', 'on-failure': 'skip', ...options.inputs },
      env: { GITHUB_SERVER_URL: gh.url, RUN_LOG: runLog, ...options.env },
    })
  const planAndApprove = async () => {
    const planned = await runAction({ gh, event: issueLabeledEvent({ gh, issue: N, label: 'converge:plan', sender: 'alice' }) })
    expect(planned.outputs['quality-gate'], gh.state.comments(N).at(-1)?.body).toBe('pass')
    const approved = await comment('/converge approve')
    expect(approved.outputs.status).toBe('planned')
    return planned
  }
  const runs = async () => (await readFile(runLog, 'utf8').catch(() => '')).trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as { task: string; hasToken: boolean; hasKey: boolean })
  const converged = async () => (await gh.state.readFile(STATE, `.converge/issues/${N}/execution.json`)) !== null
  const workBranch = () => gh.state.branchHead(`converge/issue-${N}`)
  const gitOut = async (args: string[]) => (await runGit(args, { cwd: gh.repoDir })).stdout
  /** Every commit on the work branch: its full message and the paths it touched. */
  const workCommits = async () => {
    const shas = (await gitOut(['rev-list', '--reverse', `main..converge/issue-${N}`])).trim().split('\n').filter(Boolean)
    return Promise.all(shas.map(async (sha) => ({
      message: await gitOut(['show', '-s', '--format=%B', sha]),
      subject: (await gitOut(['show', '-s', '--format=%s', sha])).trim(),
      files: (await gitOut(['show', '--name-only', '-z', '--format=', sha])).split('\0').filter(Boolean),
    })))
  }
  /** Everything Converge published: comments, check runs, pull requests, outputs, summary, every file of the state branch, every commit message. */
  const publishedParts = async (run: ActionRun): Promise<Record<string, string>> => {
    const stateFiles = (await gitOut(['ls-tree', '-r', '--name-only', '-z', STATE])).split('\0').filter(Boolean)
    const contents = await Promise.all(stateFiles.map(async (f) => [`${STATE}:${f}`, await gitOut(['show', `${STATE}:${f}`])] as const))
    return {
      comments: JSON.stringify(gh.state.comments()), 'check runs': JSON.stringify(gh.state.checkRuns()), 'pull requests': JSON.stringify(gh.state.pulls()),
      issues: JSON.stringify(gh.state.issues()), outputs: JSON.stringify(run.outputs), 'step summary': run.summary,
      'commit messages': await gitOut(['log', '--all', '--format=%B']), ...Object.fromEntries(contents),
    }
  }
  const published = async (run: ActionRun) => Object.values(await publishedParts(run)).join('\n')

  describe('who may trigger /converge execute', () => {
    beforeEach(() => start(SIMPLE))

    it.each([
      ['an actor with no permission at all', { login: 'mallory', type: 'User' as const }, null, /@mallory has (none|no) .*needs write|@mallory .*permission/],
      ['a User whose login ends in [bot], with read permission (refused by permission, not by name)', { login: 'converge[bot]', type: 'User' as const }, 'read', /^Converge did not run `\/converge execute`: @converge\[bot\] has read permission; this command needs write\.$/],
      ['a real Bot account, even with write permission', { login: 'helper-app[bot]', type: 'Bot' as const }, 'write', /^Converge did not run `\/converge execute`: helper-app\[bot\] is a bot account; Converge takes commands from people\.$/],
    ])('refuses %s: nothing runs, nothing is pushed', async (_, user, permission, reason) => {
      await planAndApprove()
      gh.seed.user(user)
      if (permission) gh.seed.permission(user.login, permission as 'read' | 'write')
      const pushes = gh.pushes.length
      const run = await comment('/converge execute', { sender: user.login })
      expect(run.exitCode).toBe(0)
      expect(run.outputs.status).toBe('refused')
      expect(gh.state.comments(N).at(-1)!.body).toMatch(reason)
      expect(await runs()).toEqual([])
      expect(await workBranch()).toBeNull()
      expect(await converged()).toBe(false)
      expect(gh.pushes.length).toBe(pushes)
    })
  })

  describe('edited comments and plans', () => {
    beforeEach(() => start(SIMPLE))

    it('ignores issue_comment.edited: an edit that turns a comment into /converge execute runs nothing and answers nothing', async () => {
      await planAndApprove()
      const fromConverge = () => gh.state.comments(N).filter((c) => c.author !== 'alice')
      const before = fromConverge()
      const run = await comment('/converge execute', { action: 'edited' })
      expect(run.exitCode).toBe(0)
      expect(run.outputs.status ?? '').not.toMatch(/completed|executing/)
      expect(await runs()).toEqual([])
      expect(await converged()).toBe(false)
      // the only new comment is the edited one itself (seeded by the event); Converge posted or changed nothing
      expect(fromConverge()).toEqual(before)
    })

    it('acts on the comment as the event delivered it: a body edited to /converge execute after the trigger is not re-read', async () => {
      await planAndApprove()
      const event = issueCommentEvent({ gh, issue: N, body: '/converge status', sender: 'alice' })
      // Between the trigger and the run, the comment is edited on GitHub into something else.
      const edit = await fetch(`${gh.url}/repos/octo-org/demo/issues/comments/${event.payload.comment.id}`, {
        method: 'PATCH', headers: { authorization: `token ${gh.token}`, 'content-type': 'application/json' }, body: JSON.stringify({ body: '/converge execute' }),
      })
      expect(edit.status).toBe(200)
      const run = await runAction({ gh, event, inputs: { 'executor-command': 'node tools/executor.js' }, env: { GITHUB_SERVER_URL: gh.url, RUN_LOG: runLog } })
      expect(run.exitCode).toBe(0)
      expect(run.outputs.status).toBe('planned')
      expect(await runs()).toEqual([])
      expect(await converged()).toBe(false)
      // the comment itself was never fetched again to decide what to run
      expect(gh.requests.some((r) => r.method === 'GET' && r.path.includes(`/issues/comments/${event.payload.comment.id}`) && !r.path.endsWith('/reactions'))).toBe(false)
    })

    it('refuses a plan whose task title and command were edited on the state branch after approval', async () => {
      await planAndApprove()
      const path = `.converge/issues/${N}/plan.json`
      const p = JSON.parse((await gh.state.readFile(STATE, path))!)
      p.tasks[0].title = 'Write a.txt, quietly'
      p.tasks[0].test.commands = [`touch ${marker('edited-plan')}`]
      await gh.seed.commit({ branch: STATE, files: { [path]: `${JSON.stringify(p, null, 2)}\n` }, message: 'edit the plan' })
      const run = await comment('/converge execute')
      expect(run.outputs.status).toBe('refused')
      expect(gh.state.comments(N).at(-1)!.body).toContain('changed after it was approved')
      expect(await runs()).toEqual([])
      expect(existsSync(marker('edited-plan'))).toBe(false)
      expect(await workBranch()).toBeNull()
    })
  })

  describe('shell injection through issue and plan text', () => {
    const paths = {
      dollar: `src/$(touch ${marker('path-dollar')}).txt`,
      backtick: `src/\`touch ${marker('path-backtick')}\`.txt`,
      option: `--exec=touch ${marker('path-option')}.txt`,
      expression: 'src/${{ github.token }};touch x.txt',
    }
    const INJECTED = plan([
      { id: 'T1', title: `Write $(touch ${marker('title-dollar')})\nSigned-off-by: mallory <m@example.com>`, files: [paths.dollar],
        description: `Run \`touch ${marker('description')}\` and $(touch ${marker('description-2')})`, commands: [check(paths.dollar)] },
      { id: 'T2', title: `Write \`touch ${marker('title-backtick')}\` and \${{ github.token }}\r\nsecond line`, files: [paths.backtick], commands: [check(paths.backtick)] },
      { id: 'T3', title: `--upload-pack=touch ${marker('title-option')}'; touch ${marker('title-quote')}; echo '`, files: [paths.option], commands: [check(paths.option)] },
      { id: 'T4', title: 'Refs: refs/heads/main:refs/heads/evil ..', files: [paths.expression], commands: [check(paths.expression)], dependsOn: ['T1'] },
    ])

    beforeEach(() => start(INJECTED, `Fix $(touch ${marker('issue-title')}) \`touch ${marker('issue-backtick')}\` \${{ github.token }}\nSecond line`))

    it('plans, approves and executes without ever running the text; commit subjects stay single lines', async () => {
      await planAndApprove()
      const run = await comment('/converge execute')
      expect(run.errors).toEqual([])
      expect(run.outputs).toMatchObject({ status: 'completed', 'tasks-completed': '4', 'tasks-failed': '0' })

      const pwned = (await readdir('/tmp')).filter((f) => f.startsWith(`pwned-${R}`))
      expect(pwned).toEqual([])

      const commits = await workCommits()
      expect(commits).toHaveLength(4)
      for (const c of commits) {
        // one line: no body, no trailer smuggled in by a newline in the title
        expect(c.message.trim()).not.toMatch(/[\r\n]/)
        expect(c.message.trim()).toBe(c.subject)
      }
      expect(commits.map((c) => c.files).flat().sort()).toEqual(Object.values(paths).sort())
      // the newline became a space (a long subject is shortened with …)
      expect(commits.find((c) => c.subject.startsWith('T1:'))!.subject).toMatch(/^T1: Write \$\(touch \/tmp\/pwned-[0-9a-f]+-title-dollar\) Signed-off-by: mall.* \(ISS-8\)$/)
      // no branch was created from the text
      const refs = (await gitOut(['for-each-ref', '--format=%(refname)'])).trim().split('\n')
      expect(refs.filter((r) => r.startsWith('refs/heads/')).sort()).toEqual(['refs/heads/converge/issue-8', 'refs/heads/converge/state', 'refs/heads/main'])
      // the literal `${{ github.token }}` is text, never the token
      expect(await published(run)).not.toContain(gh.token)
    })
  })

  describe('paths escaping the workspace', () => {
    let outside: string
    beforeEach(async () => {
      outside = await mkdtemp(join(tmpdir(), `converge-outside-${R}-`))
      cleanup.push(outside)
      const escaping = plan([
        { id: 'T1', title: 'Write a parent file', files: ['../outside.txt', 'inside-1.txt'], commands: [check('inside-1.txt')] },
        { id: 'T2', title: 'Write absolute files', files: ['/etc/passwd', `${outside}/absolute.txt`, 'inside-2.txt'], commands: [check('inside-2.txt')] },
        { id: 'T3', title: 'Write through a symlink', files: ['linked/through.txt', 'inside-3.txt'], commands: [check('inside-3.txt')] },
        { id: 'T4', title: 'Fail on the symlink', files: ['linked/failed.txt', 'linked', '../outside-failed.txt'], commands: ['test -f linked/failed.txt'] },
      ])
      await start(escaping)
      // The repository holds a symlink `linked` pointing outside any checkout.
      const clone = await mkdtemp(join(tmpdir(), 'converge-clone-'))
      cleanup.push(clone)
      await runGit(['clone', '--quiet', gh.repoDir, clone], { cwd: tmpdir() })
      await symlink(outside, join(clone, 'linked'))
      const id = ['-c', 'user.name=t', '-c', 'user.email=t@example.com']
      await runGit(['add', 'linked'], { cwd: clone })
      await runGit([...id, 'commit', '--quiet', '-m', 'add a symlink'], { cwd: clone })
      await runGit(['push', '--quiet', 'origin', 'HEAD:main'], { cwd: clone })
    })

    it('commits only paths inside the checkout and writes nothing outside it', async () => {
      const passwd = await readFile('/etc/passwd', 'utf8')
      const passwdTime = (await stat('/etc/passwd')).mtimeMs
      await planAndApprove()
      const run = await comment('/converge execute')
      expect(run.outputs).toMatchObject({ 'tasks-completed': '3', 'tasks-failed': '1' })

      // nothing outside the workspace: not next to it, not through the symlink, not at an absolute path
      expect(existsSync(join(run.workspace, '..', 'outside.txt'))).toBe(false)
      expect(existsSync(join(run.workspace, '..', 'outside-failed.txt'))).toBe(false)
      expect(await readdir(outside)).toEqual([])
      expect(await readFile('/etc/passwd', 'utf8')).toBe(passwd)
      expect((await stat('/etc/passwd')).mtimeMs).toBe(passwdTime)
      // the failed task's cleanup did not follow or remove the symlink
      expect((await stat(join(run.workspace, 'linked'))).isDirectory()).toBe(true)

      const files = (await workCommits()).flatMap((c) => c.files)
      expect(files.sort()).toEqual(['inside-1.txt', 'inside-2.txt', 'inside-3.txt'])
      for (const f of files) {
        expect(isAbsolute(f)).toBe(false)
        expect(f.split('/')).not.toContain('..')
        expect(f.startsWith('linked')).toBe(false)
      }
    })
  })

  describe('secrets printed by the commands Converge runs', () => {
    const KEY = `sk-test-${randomBytes(18).toString('hex')}`
    const b64 = (s: string) => Buffer.from(s).toString('base64')
    const SECRETS = plan([
      { id: 'T1', title: 'Print the environment', files: ['inside-1.txt'], commands: [
        'echo "token=$GITHUB_TOKEN gh=$GH_TOKEN key=$ANTHROPIC_API_KEY"',
        'env | sort > "$RUNNER_TEMP/verify-env.txt"; env',
        'node -e "console.log(Buffer.from(process.env.ANTHROPIC_API_KEY || \'\').toString(\'base64\'))"',
        check('inside-1.txt'),
      ] },
      { id: 'T2', title: 'Leak through a failure', files: ['inside-2.txt'], commands: [
        'cat "$RUNNER_TEMP/leak.txt"; echo "token=$GITHUB_TOKEN"; exit 1',
      ] },
      { id: 'T3', title: 'Leak through a verification failure', files: ['inside-3.txt'], dependsOn: ['T2'], commands: ['true'] },
    ])
    beforeEach(() => start(SECRETS))

    it('never publishes the token or an env secret (plain or base64), and keeps GITHUB_TOKEN out of every command', async () => {
      await planAndApprove()
      const run = await comment('/converge execute', {
        env: { GITHUB_TOKEN: gh.token, GH_TOKEN: gh.token, ANTHROPIC_API_KEY: KEY, LEAK_TASKS: 'T2' },
        inputs: { 'on-failure': 'skip', 'max-iterations': '2' },
      })
      expect(run.outputs).toMatchObject({ 'tasks-completed': '1', 'tasks-failed': '1' })

      // the verification commands' environment: no token, no input, no executor secret
      const verifyEnv = await readFile(join(run.workspace, '..', 'temp', 'verify-env.txt'), 'utf8')
      expect(verifyEnv).not.toMatch(/^(GITHUB_TOKEN|GH_TOKEN|INPUT_[^=]*|ACTIONS_[^=]*|ANTHROPIC_API_KEY)=/m)
      expect(verifyEnv).not.toContain(gh.token)
      expect(verifyEnv).not.toContain(KEY)
      // the executor's: its secret, never the token
      const executed = await runs()
      expect(executed.length).toBeGreaterThanOrEqual(3)
      for (const r of executed) expect(r).toMatchObject({ hasToken: false, hasKey: true })
      // the leak file really holds the secret, so T2's failure output had it to print
      expect(await readFile(join(run.workspace, '..', 'temp', 'leak.txt'), 'utf8')).toContain(KEY)

      const text = await published(run)
      for (const secret of [gh.token, KEY, b64(KEY), b64(gh.token), b64(`x-access-token:${gh.token}`)]) expect(text).not.toContain(secret)
      // the failure was reported, masked
      expect(text).toContain('***')
    })

    // Once a known limit (it.fails): the command's parent is the action's node process, whose launch environment
    // held INPUT_GITHUB-TOKEN, readable by the same user in /proc/<pid>/environ. The action now writes over it
    // there once its inputs are read (src/processes/launch-environment.ts); what stays open is its memory, pinned in
    // tests/security/token-reach.test.ts and documented in docs/security.md.
    it('an approved plan command finds no INPUT_GITHUB-TOKEN in the action process (/proc/$PPID/environ) to publish reversed, past the masking', async () => {
      const steal = `for p in $PPID $(ps -o ppid= -p $PPID 2>/dev/null); do tr '\\0' '\\n' < /proc/$p/environ 2>/dev/null; done | grep -a '^INPUT_GITHUB-TOKEN=' | sed 's/^INPUT_GITHUB-TOKEN=//'`
      const stolen = plan([{ id: 'T1', title: 'Steal the token', files: ['inside-1.txt'], commands: [
        `${steal} | rev > "$RUNNER_TEMP/stolen.txt"; ${steal} | rev; exit 1`,
      ] }])
      await gh.close()
      await start(stolen)
      await planAndApprove()
      const run = await comment('/converge execute')
      const reversed = [...gh.token].reverse().join('')
      const onRunner = await readFile(join(run.workspace, '..', 'temp', 'stolen.txt'), 'utf8').catch(() => '')
      const parts = await publishedParts(run)
      const publishedIn = Object.entries(parts).filter(([, text]) => text.includes(reversed)).map(([where]) => where)
      // the failure message says where the token went
      expect({ readOnRunner: onRunner.includes(reversed), publishedIn }).toEqual({ readOnRunner: false, publishedIn: [] })
    })
  })
})
