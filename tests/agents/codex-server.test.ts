/**
 * The real Codex CLI (npm @openai/codex, a native binary) against a scripted OpenAI Responses API on 127.0.0.1: the
 * `codex` preset's executor and planner templates, run as Converge runs them (`bash -c` in a git checkout, the prompt
 * and output files in the environment). The model's side is a script; the edits are Codex's own (its apply_patch
 * tool), and so are its JSONL report, usage and errors, read by agent-output.ts.
 *
 * Opt-in, as the CLI is too big for `npm ci`: `node scripts/install-agents.mjs` installs it into .cache/agent-clis,
 * then `CONVERGE_REAL_CLIS=1 npx vitest run tests/agents/codex-server.test.ts`.
 */
import { execFile } from 'node:child_process'
import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { delimiter, join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { afterEach, describe, expect, it } from 'vitest'
import { readAgentOutput } from '../../src/agents/agent-output.js'
import { AGENT_PRESETS } from '../../src/agents/presets.js'
import type { AgentReport } from '../../src/model/index.js'
import { codexConfig, startOpenAIServer } from '../support/model-servers/openai.js'
import type { ModelServer, ModelTurn, Scenario } from '../support/model-servers/types.js'
import { hangGuard } from '../support/suite-size.js'

const ROOT = resolve(import.meta.dirname, '..', '..')
const BIN = resolve(process.env.CONVERGE_AGENT_CLIS_DIR ?? join(ROOT, '.cache', 'agent-clis'), 'node_modules', '.bin')
// A hang guard, longer where CI's suites share the machine.
const TIMEOUT_MS = hangGuard(120_000)
const GIT_ENV = { GIT_AUTHOR_NAME: 'Dev', GIT_AUTHOR_EMAIL: 'dev@example.test', GIT_COMMITTER_NAME: 'Dev', GIT_COMMITTER_EMAIL: 'dev@example.test' }

interface CodexRun {
  checkout: string
  exitCode: number
  output: string
  report: AgentReport | undefined
  turns: ModelTurn[]
}

let model: ModelServer | undefined
const dirs: string[] = []

/** The key the scripted server accepts, in CODEX_API_KEY, the variable `codex exec` reads. */
const KEY = 'sk-scripted-0123456789'

/**
 * Runs a preset template in a new checkout (a committed README.md), with Codex's home and its config.toml (the
 * scripted server's address for its own openai provider) in temp dirs, and the key in CODEX_API_KEY.
 */
async function runCodex(template: string, scenario: Scenario, config: { model?: string; key?: Record<string, string> } = {}): Promise<CodexRun> {
  const root = await mkdtemp(join(tmpdir(), 'converge-codex-'))
  dirs.push(root)
  const [checkout, home, codexHome] = ['checkout', 'home', 'codex-home'].map((d) => join(root, d)) as [string, string, string]
  for (const dir of [checkout, home, codexHome]) await mkdir(dir)
  const git = (...args: string[]) => promisify(execFile)('git', args, { cwd: checkout, env: { ...process.env, ...GIT_ENV } })
  await git('init', '-q')
  await writeFile(join(checkout, 'README.md'), '# The project\n')
  await git('add', '.')
  await git('commit', '-qm', 'init')

  const turns: ModelTurn[] = []
  model = await startOpenAIServer((turn) => (turns.push(turn), scenario(turn)), { key: KEY })
  await writeFile(join(codexHome, 'config.toml'), codexConfig(model.url, config))
  const prompt = join(root, 'prompt.md')
  const output = join(root, 'agent-output.jsonl')
  await writeFile(prompt, 'Write 42 to src/answer.txt, then check it.\n')
  const env = {
    PATH: `${BIN}${delimiter}${process.env.PATH}`,
    HOME: home,
    CODEX_HOME: codexHome,
    ...(config.key ?? { CODEX_API_KEY: KEY }),
    CONVERGE_PROMPT_FILE: prompt,
    CONVERGE_PLAN_PROMPT_FILE: prompt,
    CONVERGE_AGENT_OUTPUT_FILE: output,
  }
  const exitCode = await new Promise<number>((done) => {
    execFile('bash', ['-c', template], { cwd: checkout, env, timeout: TIMEOUT_MS - 10_000 }, (error) => done(error ? (typeof error.code === 'number' ? error.code : -1) : 0))
  })
  const text = await readFile(output, 'utf8').catch(() => '')
  return { checkout: await realpath(checkout), exitCode, output: text, report: readAgentOutput(text), turns }
}

const status = (checkout: string) => promisify(execFile)('git', ['status', '--porcelain'], { cwd: checkout }).then((r) => r.stdout)

describe.skipIf(process.env.CONVERGE_REAL_CLIS !== '1')('Codex (the real CLI) with the codex preset, against a scripted OpenAI API', () => {
  afterEach(async () => {
    await model?.close()
    model = undefined
    for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true })
  })

  it.each([
    ['the default model, whose tools run in code mode (exec → tools.apply_patch, tools.exec_command)', undefined, 'exec'],
    ['gpt-5.5, which is offered apply_patch and exec_command themselves', 'gpt-5.5', 'apply_patch'],
  ])('executor, %s: Codex writes the file itself, reads it back, and reports its message and usage', async (_, name, tool) => {
    const run = await runCodex(AGENT_PRESETS.codex.executor, (turn) => {
      if (turn.toolResults === 0) return { kind: 'write', path: 'src/answer.txt', content: '42\n' }
      if (turn.toolResults === 1) return { kind: 'read', path: 'src/answer.txt' }
      return { kind: 'text', text: `Wrote src/answer.txt; it says ${turn.results[1]!.trim().split('\n').at(-1)}.` }
    }, { ...(name ? { model: name } : {}) })

    expect(run.exitCode).toBe(0)
    expect(await readFile(join(run.checkout, 'src', 'answer.txt'), 'utf8')).toBe('42\n')
    expect(run.turns.map((t) => [t.prompt, t.cwd, t.toolResults])).toEqual([0, 1, 2].map((n) => ['Write 42 to src/answer.txt, then check it.\n', run.checkout, n]))
    // It tries the Responses WebSocket first (a GET, which the server refuses), then posts, with the key as a bearer.
    expect(new Set(model!.requests.map((r) => `${r.method} ${r.path}`))).toEqual(new Set(['GET /v1/responses', 'POST /v1/responses']))
    expect(new Set(model!.requests.filter((r) => r.method === 'POST').map((r) => r.headers.authorization))).toEqual(new Set([`Bearer ${KEY}`]))
    expect(model!.requests.filter((r) => r.method === 'POST').flatMap((r) => (r.body as { input: Array<{ type: string; name?: string }> }).input.filter((i) => i.type === 'custom_tool_call').map((i) => i.name))).toContain(tool)
    expect(await status(run.checkout)).toBe('?? src/\n')
    expect(run.output).toMatch(/"type":"file_change","changes":\[\{"path":"[^"]*src\/answer.txt","kind":"add"\}\],"status":"completed"/)
    // Three model requests: the write, the read, the answer (code mode runs each tool in an `exec` call of its own here).
    expect(run.report).toMatchObject({ format: 'codex-jsonl', message: 'Wrote src/answer.txt; it says 42.', error: null, usage: { turns: 3, cost_usd: null } })
    expect(run.report!.usage.input_tokens).toBeGreaterThan(0)
    expect(run.report!.usage.output_tokens).toBeGreaterThan(0)
  }, TIMEOUT_MS)

  it('planner (--sandbox read-only): Codex refuses the write, the checkout is unchanged, the answer is the message', async () => {
    const run = await runCodex(AGENT_PRESETS.codex.planner, (turn) =>
      turn.toolResults === 0
        ? { kind: 'write', path: 'README.md', content: '# taken over by the planner\n' }
        : { kind: 'text', text: 'Here is the plan.\n\n```json\n{"tasks": []}\n```' })

    expect(run.turns.at(-1)!.results[0]).toMatch(/read-only sandbox/)
    expect(await readFile(join(run.checkout, 'README.md'), 'utf8')).toBe('# The project\n')
    expect(await status(run.checkout)).toBe('')
    expect(run.exitCode).toBe(0)
    expect(run.report).toMatchObject({ message: 'Here is the plan.\n\n```json\n{"tasks": []}\n```', error: null })
  }, TIMEOUT_MS)

  it('planner (--sandbox read-only): a shell command that writes fails in the sandbox', async () => {
    const run = await runCodex(AGENT_PRESETS.codex.planner, (turn) =>
      turn.toolResults === 0 ? { kind: 'shell', command: 'echo pwned > README.md; echo "exit $?"' } : { kind: 'text', text: 'Could not write.' })

    expect(run.turns.at(-1)!.results[0]).toMatch(/Read-only file system[\s\S]*exit 1|exit 1[\s\S]*Read-only file system/)
    expect(await status(run.checkout)).toBe('')
    expect(run.report).toMatchObject({ message: 'Could not write.', error: null })
  }, TIMEOUT_MS)

  it('with the key in OPENAI_API_KEY only, as the README once said: Codex sends no key, and the API refuses it', async () => {
    const run = await runCodex(AGENT_PRESETS.codex.executor, () => ({ kind: 'text', text: 'Never asked.' }), { key: { OPENAI_API_KEY: KEY } })
    expect(run.exitCode).not.toBe(0)
    expect(model!.requests.filter((r) => r.method === 'POST').map((r) => r.headers.authorization)).not.toContain(`Bearer ${KEY}`)
    expect(run.report?.error).toMatch(/^unexpected status 401 Unauthorized: You didn't provide an API key/)
    expect(run.turns).toEqual([])
  }, TIMEOUT_MS)

  // Codex quotes the API's message for a 401 or a 503; for a 429 it says only "exceeded retry limit, last status:
  // 429 Too Many Requests", whatever the body. It retries each five times (a few seconds in all) before it says so.
  it.each([
    [401, 'Incorrect API key provided: sk-scrip**************6789.', /^unexpected status 401 Unauthorized: Incorrect API key provided: sk-scrip\*+6789\./],
    [503, 'The engine is currently overloaded, please try again later.', /^unexpected status 503 Service Unavailable: The engine is currently overloaded/],
    [429, 'Rate limit reached for requests per min (RPM): Limit 3, Used 3.', /^exceeded retry limit, last status: 429 Too Many Requests$/],
  ])('a model answering %i: Codex exits non-zero, and its report carries the error', async (code, message, expected) => {
    const run = await runCodex(AGENT_PRESETS.codex.executor, () => ({ kind: 'error', status: code, message }))

    expect(run.exitCode).not.toBe(0)
    expect(run.report?.error).toMatch(expected)
    expect(run.report?.message).toBeNull()
    expect(await status(run.checkout)).toBe('')
  }, TIMEOUT_MS)

  it('a model that fails once and then answers: Codex retries, and its "Reconnecting…" events are not the report\'s error', async () => {
    let calls = 0
    const run = await runCodex(AGENT_PRESETS.codex.executor, () =>
      ++calls === 1 ? { kind: 'error', status: 503, message: 'The engine is currently overloaded.' } : { kind: 'text', text: 'Nothing to do.' })

    expect(run.exitCode).toBe(0)
    // Its own provider retries the 503 silently (its WebSocket tries before it are reported as "Reconnecting…").
    expect(calls).toBe(2)
    expect(run.output).toMatch(/"type":"error","message":"Reconnecting\.\.\. 2\/5 \(unexpected status 404/)
    expect(run.report).toMatchObject({ message: 'Nothing to do.', error: null })
  }, TIMEOUT_MS)
})
