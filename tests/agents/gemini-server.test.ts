/**
 * Gemini CLI (npm @google/gemini-cli, the real CLI) run with the templates of Converge's `gemini` preset, against a
 * scripted Gemini API of ours on 127.0.0.1 (GOOGLE_GEMINI_BASE_URL): the edits are the CLI's own (its write_file
 * tool), and so are its stream-json report, usage and errors, which agent-output.ts reads.
 *
 * Opt-in, as the CLI is too big for `npm ci`: `node scripts/install-agents.mjs` installs it into .cache/agent-clis,
 * then `CONVERGE_REAL_CLIS=1 npx vitest run tests/agents/gemini-server.test.ts`.
 */
import { execFile } from 'node:child_process'
import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { delimiter, join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { readAgentOutput } from '../../src/agents/agent-output.js'
import { AGENT_PRESETS } from '../../src/agents/presets.js'
import { startGeminiServer } from '../support/model-servers/gemini.js'
import type { ModelServer, ModelTurn, Scenario } from '../support/model-servers/types.js'
import { hangGuard } from '../support/suite-size.js'

const ROOT = resolve(import.meta.dirname, '..', '..')
const BIN = resolve(process.env.CONVERGE_AGENT_CLIS_DIR ?? join(ROOT, '.cache', 'agent-clis'), 'node_modules', '.bin')
const ENABLED = process.env.CONVERGE_REAL_CLIS === '1'
// A hang guard, 4× where CI's suites share the machine (a loaded run of the CLI has taken over 50 s).
const TIMEOUT_MS = hangGuard(60_000)

/**
 * The CLI's settings in its home. Headless, it takes only API-key auth from settings (with GOOGLE_GEMINI_BASE_URL set
 * and no settings it picks "gateway" auth, which it then refuses); it tries a failed request once instead of ten
 * times with a backoff of up to 30 s; and it sends no usage statistics, checks no update and looks for no IDE.
 */
const SETTINGS = {
  security: { auth: { selectedType: 'gemini-api-key' } },
  general: { maxAttempts: 1, enableAutoUpdate: false, enableAutoUpdateNotification: false },
  privacy: { usageStatisticsEnabled: false },
  telemetry: { enabled: false },
  ide: { enabled: false },
}

interface Run {
  exitCode: number
  /** What the template wrote to $CONVERGE_AGENT_OUTPUT_FILE. */
  output: string
  stderr: string
}

describe.skipIf(!ENABLED)('Gemini CLI (the real CLI) with the gemini preset, against a scripted Gemini API', () => {
  let work: string
  let checkout: string
  let model: ModelServer
  beforeEach(async () => {
    work = await mkdtemp(join(tmpdir(), 'converge-gemini-'))
    checkout = join(work, 'checkout')
    await mkdir(join(work, 'home', '.gemini'), { recursive: true })
    await writeFile(join(work, 'home', '.gemini', 'settings.json'), JSON.stringify(SETTINGS))
    await mkdir(checkout)
    await git('init', '-q', '-b', 'main')
    await writeFile(join(checkout, 'README.md'), '# demo\n')
    await git('add', '-A')
    await git('commit', '-qm', 'init')
  })
  afterEach(async () => {
    await model?.close()
    await rm(work, { recursive: true, force: true })
  })

  const git = (...args: string[]) =>
    promisify(execFile)('git', args, { cwd: checkout, env: { ...process.env, GIT_AUTHOR_NAME: 'Dev', GIT_AUTHOR_EMAIL: 'dev@example.test', GIT_COMMITTER_NAME: 'Dev', GIT_COMMITTER_EMAIL: 'dev@example.test' } })

  /** Runs a preset template as Converge does: in the checkout, the prompt and output files in variables. */
  async function run(template: string, scenario: Scenario, prompt: string): Promise<Run> {
    model = await startGeminiServer(scenario)
    const files = { prompt: join(work, 'prompt.md'), output: join(work, 'agent-output') }
    await writeFile(files.prompt, prompt)
    const env = {
      PATH: `${BIN}${delimiter}${process.env.PATH}`,
      HOME: join(work, 'home'),
      // Where the CLI leaves its error reports (gemini-client-error-*.json).
      TMPDIR: work,
      GOOGLE_GEMINI_BASE_URL: model.url,
      GEMINI_API_KEY: 'AIza-scripted-0123456789',
      CONVERGE_PROMPT_FILE: files.prompt,
      CONVERGE_PLAN_PROMPT_FILE: files.prompt,
      CONVERGE_AGENT_OUTPUT_FILE: files.output,
    }
    const exitCode = await new Promise<{ code: number; stderr: string }>((done) => {
      execFile('bash', ['-c', template], { cwd: checkout, env, timeout: TIMEOUT_MS - 10_000 }, (error, _stdout, stderr) =>
        done({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stderr }))
    })
    return { exitCode: exitCode.code, stderr: exitCode.stderr, output: await readFile(files.output, 'utf8').catch(() => '') }
  }

  it('executor: a write step is the CLI\'s own write_file in the checkout; its report has the final message and the tokens', async () => {
    const turns: ModelTurn[] = []
    const result = await run(AGENT_PRESETS.gemini.executor, (turn) => {
      turns.push(turn)
      return turn.toolResults === 0 ? { kind: 'write', path: 'src/answer.txt', content: '42\n' } : { kind: 'text', text: 'Wrote 42 to src/answer.txt.' }
    }, '# T1: Write src/answer.txt\n\nWrite 42 to it.\n')
    expect(result.exitCode, result.stderr).toBe(0)
    expect(await readFile(join(checkout, 'src', 'answer.txt'), 'utf8')).toBe('42\n')
    expect(turns[0]).toMatchObject({ prompt: '# T1: Write src/answer.txt\n\nWrite 42 to it.\n', cwd: await realpath(checkout), toolResults: 0 })
    expect(turns[1]!.results[0]).toMatch(/Successfully created and wrote to new file: .*src\/answer\.txt/)
    const report = readAgentOutput(result.output)!
    expect(report).toMatchObject({ format: 'gemini-json', message: 'Wrote 42 to src/answer.txt.', error: null, permission_denials: [] })
    expect(report.usage.input_tokens).toBeGreaterThan(0)
    expect(report.usage.output_tokens).toBeGreaterThan(0)
    // The CLI's side questions (its model router, with a JSON schema) were answered too, and it used the answer.
    expect(model.requests.some((r) => JSON.stringify(r.body).includes('complexity_score'))).toBe(true)
    expect(result.stderr).not.toMatch(/ZodError|invalid_type/)
  }, TIMEOUT_MS)

  it('executor: it may run commands, like the other executors (its shell tool runs in the checkout)', async () => {
    const result = await run(AGENT_PRESETS.gemini.executor, (turn) =>
      turn.toolResults === 0 ? { kind: 'shell', command: 'echo ran > ran.txt' } : { kind: 'text', text: 'Ran it.' }, 'Run the command.\n')
    expect(result.exitCode, result.stderr).toBe(0)
    expect(await readFile(join(checkout, 'ran.txt'), 'utf8')).toBe('ran\n')
    expect(readAgentOutput(result.output)).toMatchObject({ message: 'Ran it.', error: null, permission_denials: [] })
  }, TIMEOUT_MS)

  it('planner: read-only without a terminal, its write and its command are refused, its final message is readable', async () => {
    const plan = 'Here is the plan.\n\n```json\n{"tasks": []}\n```'
    const result = await run(AGENT_PRESETS.gemini.planner, (turn) => {
      if (turn.toolResults === 0) return { kind: 'write', path: 'README.md', content: '# taken over by the planner\n' }
      if (turn.toolResults === 1) return { kind: 'shell', command: 'echo ran > ran.txt' }
      return { kind: 'text', text: plan }
    }, 'You are the planner. Plan the work.\n')
    expect(result.exitCode, result.stderr).toBe(0)
    expect(await readFile(join(checkout, 'README.md'), 'utf8')).toBe('# demo\n')
    expect((await git('status', '--porcelain')).stdout).toBe('')
    const report = readAgentOutput(result.output)!
    expect(report).toMatchObject({ format: 'gemini-json', message: plan, error: null })
    expect(report.permission_denials).toEqual([`write_file: ${join(await realpath(checkout), 'README.md')}`, 'run_shell_command: echo ran > ran.txt'])
    // The model was offered the read tools only: nothing that writes, runs commands or switches into plan mode.
    const offered = new Set(model.requests.flatMap((r) => (r.body as { tools?: Array<{ functionDeclarations?: Array<{ name: string }> }> }).tools ?? [])
      .flatMap((t) => t.functionDeclarations ?? []).map((f) => f.name))
    expect(offered).toContain('read_file')
    expect(['write_file', 'replace', 'run_shell_command', 'enter_plan_mode', 'exit_plan_mode'].filter((name) => offered.has(name))).toEqual([])
  }, TIMEOUT_MS)

  it.each([
    [400, 'API key not valid. Please pass a valid API key.'],
    [401, 'Request had invalid authentication credentials.'],
    [429, 'Resource has been exhausted (e.g. check quota).'],
  ])('a model answering %i: the CLI exits non-zero after one request, and the report\'s error has the server\'s message', async (status, message) => {
    const result = await run(AGENT_PRESETS.gemini.executor, () => ({ kind: 'error', status, message }), 'Write the answer.\n')
    expect(result.exitCode).not.toBe(0)
    expect(readAgentOutput(result.output)?.error).toContain(message)
    // One request of its main loop (the one with tools): no retry, with maxAttempts 1 (a refused key: not at all).
    expect(model.requests.filter((r) => (r.body as { tools?: unknown[] }).tools?.length)).toHaveLength(1)
  }, TIMEOUT_MS)
})
