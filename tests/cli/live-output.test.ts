/**
 * The executor's latest output line while it runs, on a terminal (issue 14, item 4): the process runner's `onLine`
 * hook with a real child process, and the status lines the CLI draws from it — only on a TTY, never with --json.
 */
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { writeFile } from 'node:fs/promises'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { runCommand } from '../../src/processes/run-command.js'
import { converge, greetingsRepo, type GreetingsRepo } from './support.js'

describe('runCommand onLine', () => {
  it('passes each non-empty line of stdout and stderr as it comes, whole across writes, secrets masked', async () => {
    const lines: Array<{ line: string; at: number }> = []
    const started = Date.now()
    const result = await runCommand({
      command: [
        "printf 'first '", 'sleep 0.2', "printf 'line\\n\\n   \\n'", 'sleep 0.05', "printf 'token hunter2-secret-value here\\n'", 'sleep 0.05',
        "printf 'on stderr\\n' >&2", 'sleep 0.05', "printf 'no newline at the end'", 'sleep 0.3',
      ].join('; '),
      cwd: tmpdir(),
      timeoutMs: 10_000,
      secrets: ['hunter2-secret-value'],
      onLine: (line) => lines.push({ line, at: Date.now() - started }),
    })
    expect(result.exitCode).toBe(0)
    expect(lines.map((l) => l.line)).toEqual(['first line', 'token *** here', 'on stderr', 'no newline at the end'])
    // As it comes: the first line while the command still runs, not when it has ended.
    expect(lines[0]!.at).toBeLessThan(result.durationMs - 250)
    expect(result.outputTail).toContain('token *** here')
  })
})

describe('the status line of a running task', () => {
  let t: GreetingsRepo
  afterEach(async () => {
    vi.unstubAllEnvs()
    await t?.cleanup()
  })

  /** An executor that says what it does, slowly, in colour, with a long line and an API key, then does the task. */
  async function slowExecutor(): Promise<string> {
    const path = join(t.dir, 'slow.mjs')
    await writeFile(path, [
      "import { readFileSync, writeFileSync } from 'node:fs'",
      'const pause = () => new Promise((r) => setTimeout(r, 400))',
      "const task = JSON.parse(readFileSync(process.env.CONVERGE_TASK_FILE, 'utf8'))",
      "console.log('reading ' + task.id)",
      'await pause()',
      "console.error('\\u001b[32musing key ' + process.env.DEMO_API_KEY + '\\u001b[0m')",
      'await pause()',
      "console.log('a very long line that goes on and on, far past the width of this narrow terminal')",
      'await pause()',
      "for (const file of task.files) writeFileSync(file.path, task.description.split(' ')[1] + '\\n')",
    ].join('\n'))
    return `node '${path}'`
  }

  async function planned() {
    t = await greetingsRepo()
    vi.stubEnv('DEMO_API_KEY', 'sk-demo-0123456789')
    await converge(['plan', '--issue-file', t.issue, '--repo', t.repo])
    await converge(['approve', '--number', '7', '--repo', t.repo])
    return slowExecutor()
  }

  it('on a TTY: drawn under the progress lines, redrawn in place, masked and cut to the width, gone when the task ends', async () => {
    const executor = await planned()
    const writes: string[] = []
    const run = await converge(['execute', '--number', '7', '--repo', t.repo, '--executor', executor], { tty: true, columns: 40, write: (text) => writes.push(text) })
    expect(run.code, run.err).toBe(0)
    const screen = writes.join('')
    expect(screen).toContain('  ▸ T1 Write hello.txt\n')
    expect(screen).toContain('    T1 │ reading T1\n')
    expect(screen).toContain('    T1 │ using key ***\n')
    expect(screen).not.toContain('sk-demo-0123456789')
    const long = /^ {4}T1 │ a very long line.*$/m.exec(screen.replaceAll('\u001b[1F\u001b[J', ''))![0]
    expect(long).toBe('    T1 │ a very long line that goes on…')
    expect([...long].length).toBe(39) // the terminal's 40 columns, less one: the line never wraps
    // Each redraw first moves up over the status line and clears it; the verdict comes after the line is gone.
    const verdict = writes.findIndex((w) => w.startsWith('  ✓ T1 converged'))
    expect(writes[verdict - 1]).toBe('\u001b[1F\u001b[J')
    const lastStatus = writes.map((w, i) => (w.includes('│') ? i : -1)).filter((i) => i >= 0).at(-1)!
    expect(writes[lastStatus + 1]).toBe('\u001b[1F\u001b[J')
    expect(writes.slice(writes.findIndex((w) => w.startsWith('  ✓ T2 converged')) + 1).some((w) => w.includes('│'))).toBe(false)
  })

  it('not on a TTY, or with --json: no status line at all', async () => {
    const executor = await planned()
    const writes: string[] = []
    const plain = await converge(['execute', '--number', '7', '--repo', t.repo, '--executor', executor], { write: (text) => writes.push(text) })
    expect(plain.code).toBe(0)
    expect(plain.out).not.toContain('│')
    expect(plain.out).toMatch(/^ {2}✓ T1 converged/m)
    await converge(['retry', 'T1', '--number', '7', '--repo', t.repo, '--executor', executor, '--json'], { tty: true, write: (text) => writes.push(text) })
    expect(writes).toEqual([])
  })
})
