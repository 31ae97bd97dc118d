/** The board without a browser: its data from state files (read tolerantly), its policy, the CLI command and the server. */
import { createHash } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { BOARD_ISSUE_SCRIPT, BOARD_SCRIPT, BOARD_STYLE } from '../../src/board/client.js'
import { buildBoardData } from '../../src/board/data.js'
import { parseStateFile, FILE_SCHEMAS } from '../../src/board/input.js'
import { CONTENT_SECURITY_POLICY } from '../../src/board/page.js'
import { readBoardInput } from '../../src/board/read-state.js'
import { serveBoard } from '../../src/board/serve.js'
import { UsageError } from '../../src/cli/usage-error.js'
import { statePaths } from '../../src/model/state-layout.js'
import { LocalGitStore } from '../../src/state/local-git-store.js'
import { transact } from '../../src/state/store.js'
import { converge, greetingsRepo } from '../cli/support.js'

const execFileAsync = promisify(execFile)
const BUILT_CLI = resolve(import.meta.dirname, '../../dist/cli/index.js')

const sha = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`

describe('converge board', () => {
  it('writes the page and its data from the state branch; evidence absent is "not recorded", an unreadable file is named on the board', async () => {
    const t = await greetingsRepo()
    try {
      await converge(['plan', '--issue-file', t.issue, '--repo', t.repo])
      await converge(['approve', '--number', '7', '--repo', t.repo])
      expect((await converge(['execute', '--number', '7', '--repo', t.repo, '--executor', t.executor])).code).toBe(0)
      const out = join(t.dir, 'board')
      const made = await converge(['board', '--repo', t.repo, '--out', out, '--json'])
      expect(made.code, made.err).toBe(0)
      const data = JSON.parse(await readFile(join(out, 'board.json'), 'utf8'))
      expect(JSON.parse(made.out)).toMatchObject({ issues: 1, head: data.head })
      expect(data.issues[0]).toMatchObject({
        number: 7, status: 'completed', gate: 'pass', approval: { current: true }, evidence: { 'not-recorded': 0, proven: 2 },
        cost_usd: null, tokens: null, links: { branch: 'converge/issue-7', issue: null },
      })
      expect(data.issues[0].tasks.map((task: { id: string; state: string; commit: string | null }) => [task.id, task.state, task.commit !== null])).toEqual([['T1', 'converged', true], ['T2', 'converged', true]])
      const html = await readFile(join(out, 'index.html'), 'utf8')
      expect(html).toContain(`<meta http-equiv="Content-Security-Policy" content="${CONTENT_SECURITY_POLICY}">`)

      // The execute recorded each task's evidence: its check failed before the change and passes after.
      expect(data.issues[0].tasks[0].evidence).toMatchObject({ kind: 'proven', before: [{ exit_code: expect.any(Number) }], after: [{ exit_code: 0 }] })

      // Evidence absent (a record of an older version) or not matching its schema counts as not recorded; a file that
      // is not JSON is a problem of its issue.
      const store = new LocalGitStore({ repoDir: t.repo })
      await transact(store, async (snapshot) => {
        const record = JSON.parse((await snapshot.read(statePaths.execution(7)))!)
        delete record.tasks.T1.evidence
        record.tasks.T2.evidence = { kind: 'made-up' }
        return { message: 'evidence', files: { [statePaths.execution(7)]: JSON.stringify(record) } }
      })
      let board = buildBoardData(await readBoardInput(store), 'now')
      expect(board.issues[0]!.evidence).toMatchObject({ proven: 0, 'not-recorded': 2 })
      await transact(store, () => ({ message: 'break', files: { [statePaths.plan(7)]: '{ not json' } }))
      board = buildBoardData(await readBoardInput(store), 'now')
      expect(board.issues[0]!.problems).toEqual([expect.stringMatching(/^\.converge\/issues\/7\/plan\.json: not JSON/)])
      expect(board.issues[0]!).toMatchObject({ status: 'completed', tasks: [] })
    } finally {
      await t.cleanup()
    }
  })

  it('reads one commit: when the state branch moves while the files are read, it reads them again at the new head', async () => {
    const t = await greetingsRepo()
    try {
      await converge(['plan', '--issue-file', t.issue, '--repo', t.repo])
      const local = new LocalGitStore({ repoDir: t.repo })
      let snapshots = 0
      // Another writer approves the plan between the read of state.json and the read of the issue's files.
      const store = {
        branch: local.branch,
        commit: local.commit.bind(local),
        snapshot: async (paths?: readonly string[]) => {
          if (++snapshots === 2) await converge(['approve', '--number', '7', '--repo', t.repo])
          return local.snapshot(paths)
        },
      }
      const input = await readBoardInput(store)
      expect(input.head).toBe((await local.snapshot()).head)
      expect(input.issues[0]!.plan?.approval).toBeDefined()
      expect(snapshots).toBe(4)
    } finally {
      await t.cleanup()
    }
  })

  it('asks for --out or --serve, and says when --repo is no repository', async () => {
    await expect(converge(['board'])).rejects.toThrow(new UsageError('board needs --out <dir> (write the page there) or --serve (serve it on 127.0.0.1)'))
    await expect(converge(['board', '--repo', '/nonexistent', '--out', 'x'])).rejects.toThrow('--repo /nonexistent: no such folder')
    await expect(converge(['board', '--serve', '--port', '70000'])).rejects.toThrow('--port must be a port number, 0 to 65535')
    await expect(converge(['board', '--out', 'x', '--threads', '3'])).rejects.toThrow(new UsageError('--threads takes 1 or 2, not "3"'))
  })

  // The second thread runs the bundle's own entry, which hands it to the board (src/cli/main.ts): only the built
  // CLI shows that path works. A small state is made on two threads with --threads 2.
  it('makes the same board on two threads as on one, from the built CLI (dist/cli/index.js)', async () => {
    const t = await greetingsRepo()
    try {
      await converge(['plan', '--issue-file', t.issue, '--repo', t.repo])
      await converge(['approve', '--number', '7', '--repo', t.repo])
      expect((await converge(['execute', '--number', '7', '--repo', t.repo, '--executor', t.executor])).code).toBe(0)
      // A second issue, for the second thread: issue 7 (run) is the first half of the state's bytes, issue 8 the second.
      await converge(['plan', '--issue-file', t.issue, '--number', '8', '--repo', t.repo])
      const made = async (threads: string) => {
        const out = join(t.dir, `board-${threads}`)
        const { stdout } = await execFileAsync(process.execPath, [BUILT_CLI, 'board', '--repo', t.repo, '--out', out, '--threads', threads, '--json'])
        const data = JSON.parse(await readFile(join(out, 'board.json'), 'utf8'))
        const page = (n: number) => readFile(join(out, 'issues', `${n}.js`), 'utf8')
        return { printed: JSON.parse(stdout).issues, data: { ...data, generated_at: null }, pages: [await page(7), await page(8)] }
      }
      const [one, two] = [await made('1'), await made('2')]
      expect(one.printed).toBe(2)
      expect(one.pages[1]).toContain('T1')
      expect(two).toEqual(one)
    } finally {
      await t.cleanup()
    }
  })

  it('allows its own script and styles by hash, scripts of its own folder (the issues\' pages), and nothing else', () => {
    expect(CONTENT_SECURITY_POLICY).toBe(
      `default-src 'none'; script-src ${sha(BOARD_ISSUE_SCRIPT)} ${sha(BOARD_SCRIPT)} 'self'; style-src ${sha(BOARD_STYLE)}; img-src 'none'; base-uri 'none'; form-action 'none'`,
    )
  })

  it('links only https URLs of the issue, never what an issue.json says is its URL otherwise', () => {
    const url = (value: string) => parseStateFile('issue.json', JSON.stringify({ id: 'ISS-1', number: 1, title: 't', status: 'registered', solution_id: null, planned_at: null, executed_at: null, error: null, url: value }), FILE_SCHEMAS.issue).value!
    const links = (value: string) => buildBoardData({ branch: 'b', head: null, run: undefined, problems: [], issues: [{ number: 1, issue: url(value), plan: undefined, execution: undefined, events: undefined, problems: [] }] }, 'now').issues[0]!.links
    expect(links('https://github.com/o/r/issues/1')).toMatchObject({ issue: 'https://github.com/o/r/issues/1', branch_url: 'https://github.com/o/r/tree/converge/issue-1' })
    expect(links('javascript:alert(1)//issues/1')).toMatchObject({ issue: null, pull_request: null, branch_url: null })
  })
})

describe('converge board --serve', () => {
  it('serves the page with its policy on 127.0.0.1 and makes it again when the state branch moves', async () => {
    const t = await greetingsRepo()
    try {
      await converge(['plan', '--issue-file', t.issue, '--repo', t.repo])
      const store = new LocalGitStore({ repoDir: t.repo })
      const server = await serveBoard({ store, port: 0, pollMs: 50 })
      try {
        expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/)
        const page = await fetch(server.url)
        expect(page.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY)
        expect(await page.text()).toContain('not approved')
        expect(await (await fetch(`${server.url}issues/7.js`)).text()).toMatch(/^boardIssue\(7, "/)
        expect((await fetch(`${server.url}issues/8.js`)).status).toBe(404)
        expect((await fetch(`${server.url}nothing`)).status).toBe(404)
        expect((await fetch(server.url, { method: 'POST' })).status).toBe(405)
        await converge(['approve', '--number', '7', '--repo', t.repo])
        const moved = (await store.snapshot()).head
        await expect.poll(() => server.head(), { timeout: 10_000 }).toBe(moved)
        const data = await (await fetch(`${server.url}board.json`)).json()
        expect(data).toMatchObject({ head: moved, issues: [{ number: 7, approval: { by: expect.any(String), current: true } }] })
      } finally {
        await server.close()
      }
    } finally {
      await t.cleanup()
    }
  })
})
