/**
 * The board against hostile or huge state (issue 35) and the reviewer's page (issue 36), without a browser: the
 * server answers only to its own Host, bidi controls are shown as code points, ANSI codes never reach the page,
 * a huge plan is a summary, a board that cannot be made never fails the command, and each badge says what the
 * evidence says.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { boardArtifactOrWarning } from '../../src/action/board.js'
import { buildBoardData, MAX_TASKS_SHOWN, withoutOutputs } from '../../src/board/data.js'
import { escapeHtml } from '../../src/board/escape.js'
import { GraphLayout } from '../../src/board/graph.js'
import { inlineCode } from '../../src/board/format.js'
import { FILE_SCHEMAS, parseStateFile, type IssueFiles } from '../../src/board/input.js'
import { issuePage } from '../../src/board/issue-page.js'
import { BOARD_FILES, layoutsOf, makeBoard, renderBoard, writeBoard } from '../../src/board/make.js'
import { readBoardInput } from '../../src/board/read-state.js'
import { startPagesWorker } from '../../src/board/pages-worker.js'
import { serveBoard } from '../../src/board/serve.js'
import { SolutionInputSchema, type Solution } from '../../src/model/index.js'
import { planHash } from '../../src/plan/hash.js'
import type { StateSnapshot, StateStore } from '../../src/state/store.js'
import { syntheticStore } from '../../bench/board.js'
import { syntheticPlan } from '../../bench/synthetic.js'

const AT = '2026-11-20T10:00:00.000Z'
const RED = '\u001b[31mError: No test files found\u001b[39m\n\u001b[1mexit 1\u001b[22m'

function plan(tasks: number, n = 1): Solution {
  return SolutionInputSchema.parse({ ...syntheticPlan(tasks, 'minimal', n), id: `SOL-ISS-${n}-1`, issue_id: `ISS-${n}` })
}

function result(id: string, extra: Record<string, unknown> = {}) {
  return {
    task_id: id, status: 'completed', started_at: AT, executed_at: AT, duration_ms: 10, files_modified: [], commit_hash: 'a'.repeat(40),
    tests_passed: true, attempts: 1, error: null, convergence_verified: [], ...extra,
  }
}

function files(p: Solution, tasks: Record<string, unknown>, n = 1): IssueFiles {
  const record = { solution_id: p.id, issue_id: `ISS-${n}`, plan_hash: planHash(p), status: 'completed', started_at: AT, executed_at: AT, tasks }
  const execution = parseStateFile('execution.json', JSON.stringify(record), FILE_SCHEMAS.execution).value
  if (!execution) throw new Error(parseStateFile('execution.json', JSON.stringify(record), FILE_SCHEMAS.execution).problem)
  return { number: n, issue: undefined, plan: p, execution, events: undefined, problems: [] }
}

const boardOf = (...issues: IssueFiles[]) => buildBoardData({ branch: 'converge/state', head: null, run: undefined, problems: [], issues }, AT)

function get(port: number, path: string, host: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers: { host } }, (res) => {
      let body = ''
      res.on('data', (chunk) => (body += chunk))
      res.on('end', () => resolve({ status: res.statusCode!, body }))
    })
    req.on('error', reject)
    req.end()
  })
}

const emptyStore = (): StateStore => {
  const snapshot: StateSnapshot = { head: null, read: async () => undefined }
  return { branch: 'converge/state', snapshot: async () => snapshot, commit: async () => { throw new Error('read only') } }
}

describe('converge board --serve and DNS rebinding', () => {
  it('refuses a request whose Host is not its own address and port, and answers its own', async () => {
    const server = await serveBoard({ store: emptyStore(), port: 0, pollMs: 60_000 })
    try {
      const port = Number(new URL(server.url).port)
      const rebound = await get(port, '/board.json', 'rebind.attacker.example')
      expect(rebound.status).toBe(421)
      expect(rebound.body).not.toContain('converge/state')
      expect((await get(port, '/board.json', `rebind.attacker.example:${port}`)).status).toBe(421)
      expect((await get(port, '/', `127.0.0.1:${port + 1}`)).status).toBe(421)
      const own = await get(port, '/board.json', `127.0.0.1:${port}`)
      expect(own.status).toBe(200)
      expect(JSON.parse(own.body)).toMatchObject({ branch: 'converge/state' })
      expect((await get(port, '/', `localhost:${port}`)).status).toBe(200)
    } finally {
      await server.close()
    }
  })
})

describe('text on the board', () => {
  it('shows every bidi control as its code point, so nothing after it is drawn reversed', () => {
    const controls = ['\u202A', '\u202B', '\u202C', '\u202D', '\u202E', '\u2066', '\u2067', '\u2068', '\u2069', '\u200E', '\u200F', '\u061C']
    for (const c of controls) expect(escapeHtml(`a${c}b`)).toBe(`a‹U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}›b`)
    expect(escapeHtml('invoice\u202Efdp.exe')).toBe('invoice‹U+202E›fdp.exe')
  })

  it('renders a criterion\'s inline code as code, escaped, and no other markup of the issue', () => {
    expect(inlineCode('`slugify("Ça")` returns `<b>ca</b>` and <img src=x>')).toBe(
      '<code>slugify(&quot;Ça&quot;)</code> returns <code>&lt;b&gt;ca&lt;/b&gt;</code> and &lt;img src=x&gt;',
    )
  })

  it('strips ANSI codes from every output and error it shows, and bidi controls from file names in the page', async () => {
    const p = plan(2)
    const [t1, t2] = p.tasks.map((t) => t.id) as [string, string]
    const data = boardOf(files(p, {
      [t1]: result(t1, {
        status: 'failed', error: `\u001b[31mfailed\u001b[0m`, files_modified: ['src/evil\u202Ets.exe'],
        convergence_verified: [{ kind: 'command', text: 'npm test', verdict: 'fail', verified_by: 'command', exit_code: 1, output_tail: RED }],
        evidence: { kind: 'unproven', before: [{ command: 'npm test', exit_code: 1, duration_ms: 1, output_tail: RED }], after: [{ command: 'npm test', exit_code: 1, duration_ms: 1, output_tail: RED }] },
      }),
      [t2]: result(t2),
    }))
    const board = await renderBoard(data)
    const task = data.issues[0]!.tasks[0]!
    expect(task.checks.find((c) => c.kind === 'command' && c.text === 'npm test')!.output_tail).toBe('Error: No test files found\nexit 1')
    expect(task.evidence!.after[0]!.output_tail).toBe('Error: No test files found\nexit 1')
    expect(task.error).toBe('failed')
    const page = issuePage(data.issues[0]!, '')
    expect(page).not.toMatch(/\u001b|\[31m/)
    expect(page).toContain('src/evil‹U+202E›ts.exe')
    expect([board.html, ...board.issues.values()].join('')).not.toContain('\u202E')
    expect(board.issues.get(1)).toContain('src/evil‹U+202E›ts.exe')
  })
})

describe('badges from the evidence sentence', () => {
  it('calls a no-change task what its text says, reads an agent\'s claim as a claim, and converged only proven work', () => {
    const p = plan(3)
    const [t1, t2, t3] = p.tasks.map((t) => t.id) as [string, string, string]
    const ok = [{ command: 'npm test', exit_code: 0, duration_ms: 1, output_tail: 'ok' }]
    const data = boardOf(files(p, {
      [t1]: result(t1, { evidence: { kind: 'no-change', before: ok, after: ok } }),
      [t2]: result(t2, {
        files_modified: ['src/a.ts', 'tests/a.test.ts', 'assets/logo.png'],
        file_stats: [{ path: 'src/a.ts', added: 12, removed: 3 }, { path: 'assets/logo.png', added: 0, removed: 0, binary: true }],
        convergence_verified: [{ kind: 'criterion', text: 'It works', verdict: 'pass', verified_by: 'agent' }],
        evidence: {
          kind: 'proven', before: [{ ...ok[0]!, exit_code: 1 }], after: ok, check_files: [{ path: 'tests/a.test.ts', change: 'created', role: 'a test file' }],
          forward: [{ ...ok[0]!, command: 'npm test -- forward', exit_code: 1 }],
        },
      }),
      [t3]: result(t3, { evidence: { kind: 'unproven', before: ok, after: ok } }),
    }))
    const [nochange, proven, unproven] = data.issues[0]!.tasks as [typeof data.issues[0]['tasks'][0], typeof data.issues[0]['tasks'][0], typeof data.issues[0]['tasks'][0]]
    expect(nochange).toMatchObject({ state: 'unproven', badge: 'changed nothing', evidence: { sentence: `${t1} changed nothing: its check already passed before the change` } })
    expect(proven).toMatchObject({ state: 'converged', badge: 'converged', evidence: { check_files: ['tests/a.test.ts'], differential: { forward: [{ command: 'npm test -- forward' }], reverse: [] } } })
    expect(unproven).toMatchObject({ state: 'unproven', badge: 'unproven' })
    const page = issuePage(data.issues[0]!, '')
    const article = (id: string) => page.slice(page.indexOf(`id="task-1-${id}"`), page.indexOf('</article>', page.indexOf(`id="task-1-${id}"`)))
    expect(article(t1)).toContain('<span class="badge e-no-change">changed nothing</span>')
    expect(article(t1)).not.toContain('>unproven<')
    expect(article(t2)).toContain('<span class="badge s-claimed">claimed by the agent</span>')
    expect(article(t2)).not.toContain('s-pass')
    expect(article(t2)).toContain('<li class="check-file"><code>tests/a.test.ts</code>')
    expect(article(t2)).toMatch(/<code>src\/a\.ts<\/code> <span class="added">\+12<\/span> <span class="removed">−3<\/span>/)
    expect(article(t2)).toMatch(/<code>assets\/logo\.png<\/code> <span class="muted">binary<\/span>/)
    expect(article(t2)).toContain('Differential run (forward)')
    expect(article(t3)).toContain('<span class="badge s-unproven">unproven</span>')
  })

  it('reads a record without the newer fields, or with unreadable ones, as before', () => {
    const p = plan(1)
    const t1 = p.tasks[0]!.id
    const data = boardOf(files(p, { [t1]: result(t1, { file_stats: 'nonsense', evidence: { kind: 'proven', before: [{ command: 'x', exit_code: 1, duration_ms: 1, output_tail: '' }], after: [{ command: 'x', exit_code: 0, duration_ms: 1, output_tail: '' }], check_files: 7, forward: 'x' } }) }))
    expect(data.issues[0]!.tasks[0]).toMatchObject({ badge: 'converged', evidence: { kind: 'proven', check_files: [], differential: null } })
  })
})

describe('a board of huge plans', () => {
  it('shows a plan larger than the board shows as a summary, without its tasks', async () => {
    const big = plan(MAX_TASKS_SHOWN + 1, 1)
    const results = Object.fromEntries(big.tasks.map((t) => [t.id, result(t.id, { evidence: { kind: 'manual', before: [], after: [] } })]))
    const data = boardOf(files(big, results, 1), files(plan(2, 2), {}, 2))
    const board = await renderBoard(data)
    expect(data.issues[0]).toMatchObject({ tasks: [], tasks_hidden: MAX_TASKS_SHOWN + 1, evidence: { manual: MAX_TASKS_SHOWN + 1 } })
    expect(data.issues[1]!.tasks).toHaveLength(2)
    expect(board.issues.get(1)).toContain(`Its plan has 1,001 tasks, more than the board shows in detail`)
  })

  // No time bound (a loaded CI machine took 21 s, mostly hashing the two plans): what kept the board from ending is
  // its memory (before, it was killed at 90 s and 2.1 GB) and the task views it wrote, both bounded here.
  it('makes the board of two 50,000-task plans as two summaries, in bounded memory, with no task view', async () => {
    const huge = [plan(50_000, 1), plan(50_000, 2)]
    const before = process.memoryUsage().heapUsed
    const board = await renderBoard(boardOf(...huge.map((p, i) => files(p, {}, i + 1))))
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(500 * 1024 * 1024)
    expect(board.data.issues.map((i) => [i.tasks.length, i.tasks_hidden])).toEqual([[0, 50_000], [0, 50_000]])
    expect(Buffer.byteLength(board.html) + [...board.issues.values()].reduce((sum, s) => sum + s.length, 0)).toBeLessThan(100_000)
  }, 120_000)
})

describe('board.json and the issues\' pages', () => {
  it('holds the board\'s data with every command output null; the outputs are in the issues\' pages, made an issue at a time as from the whole data', async () => {
    const store = syntheticStore(8)
    const made = await makeBoard(store, AT)
    const whole = buildBoardData(await readBoardInput(store), AT)
    expect(made.json).not.toMatch(/"output_tail":"/)
    expect(JSON.parse(made.json)).toEqual(JSON.parse(JSON.stringify({ ...whole, issues: whole.issues.map(withoutOutputs) })))
    expect(made.data.issues[0]!.tasks[0]!.evidence).toMatchObject({ kind: 'unproven', before: [{ command: expect.any(String), exit_code: 0, output_tail: null }] })
    // Issue 1 was executed: its page shows the outputs board.json leaves out.
    expect(whole.issues[0]!.tasks[0]!.evidence!.before[0]!.output_tail).toBe('FAIL 1 test')
    expect(made.issues.get(1)).toContain('FAIL 1 test')
    expect(made.issues).toEqual((await renderBoard(whole)).issues)
  })
})

describe('the board made on two threads', () => {
  it('is the board made on one: the issues after the half-way point of the state\'s bytes made by a worker thread, its layouts kept', async () => {
    // Issues 5–8 (the worker's half) hold the plans and records of issues 1–4: the worker draws graphs and outputs too.
    const base = syntheticStore(8)
    const store: StateStore = {
      ...base,
      snapshot: async (paths) => {
        const snapshot = await base.snapshot(paths)
        return { ...snapshot, read: (path) => snapshot.read(path.replace(/issues\/([5-8])\/(plan|execution)\.json$/, (_, n, file) => `issues/${n - 4}/${file}.json`)) }
      },
    }
    const [one, two] = [new GraphLayout(), new GraphLayout()]
    const alone = await makeBoard(store, AT, one, false)
    const shared = await makeBoard(store, AT, two, true)
    expect(shared.html).toBe(alone.html)
    expect(shared.json).toBe(alone.json)
    expect([...shared.issues]).toEqual([...alone.issues])
    expect(shared.layouts).toBe(alone.layouts)
    expect(shared.issues.get(6)).toContain('FAIL 1 test')
    expect(shared.issues.get(7)).toContain('Task graph of ISS-7')
    // Each thread lays out the shapes it has not seen: the worker, the same four plans again.
    expect([one.made, two.made]).toEqual([4, 8])
  })

  it('names the failure when the worker fails or ends without its pages', async () => {
    const job = { run: undefined, issues: [], layouts: {} }
    const thrown = startPagesWorker(job, new URL('data:text/javascript,throw new Error("out of memory, say")'))
    await expect(thrown.result).rejects.toThrow("the board's second thread failed: out of memory, say")
    const ended = startPagesWorker(job, new URL('data:text/javascript,process.exit(3)'))
    await expect(ended.result).rejects.toThrow("the board's second thread failed: it ended (exit code 3) without its issues' pages")
  })
})

describe('layouts kept between boards', () => {
  it('lays out a plan once: the next board made into the folder lays out nothing new, and keeps only the layouts it drew', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'converge-board-layouts-'))
    try {
      const first = await layoutsOf(dir)
      await writeBoard(dir, await renderBoard(boardOf(files(plan(5, 1), {}, 1), files(plan(3, 2), {}, 2)), first))
      expect(first.made).toBe(2)
      // Issue 2's plan is gone from the next board: issue 1's graph comes from layouts.json, and issue 2's is dropped.
      const next = await layoutsOf(dir)
      const board = await renderBoard(boardOf(files(plan(5, 1), {}, 1)), next)
      await writeBoard(dir, board)
      expect(next.made).toBe(0)
      expect(board.issues.get(1)).toContain('Task graph of ISS-1')
      expect(Object.keys(JSON.parse(await readFile(join(dir, BOARD_FILES.layouts), 'utf8')))).toHaveLength(1)
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })
})

describe('board: artifact after a command', () => {
  it('is a warning, never a failure, when the board cannot be made', async () => {
    const temp = await mkdtemp(join(tmpdir(), 'converge-board-fail-'))
    try {
      // The folder the board goes to is a file: writing it fails.
      await writeFile(join(temp, 'converge-board'), 'in the way')
      const made = await boardArtifactOrWarning(emptyStore(), temp, AT)
      expect(made).toEqual({ warning: expect.stringMatching(/^Converge: the board could not be made \(.*\); the command's own outcome stands$/) })
      const broken: StateStore = { ...emptyStore(), snapshot: async () => { throw new Error('state branch unreadable') } }
      expect(await boardArtifactOrWarning(broken, temp, AT)).toEqual({ warning: expect.stringContaining('state branch unreadable') })
    } finally {
      await rm(temp, { recursive: true, force: true })
    }
  })
})
