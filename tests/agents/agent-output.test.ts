import { describe, expect, it } from 'vitest'
import { planFromAgentMessage, readAgentOutput } from '../../src/agents/agent-output.js'
import { AGENT_NAMES, AGENT_PRESETS, agentCommand, maxTurnsRefusal } from '../../src/agents/presets.js'
import { runUsage } from '../../src/agents/usage.js'
import { formatUsage } from '../../src/report/format.js'

// The shapes as the real CLIs print them (Claude Code 2.1 `-p --output-format json` against our scripted model server).
const CLAUDE_OK = JSON.stringify({
  type: 'result', subtype: 'success', is_error: false, num_turns: 2, result: 'Wrote src/a.js.', total_cost_usd: 0.00128,
  usage: { input_tokens: 200, cache_creation_input_tokens: 0, cache_read_input_tokens: 50, output_tokens: 24 },
  permission_denials: [{ tool_name: 'Write', tool_use_id: 'toolu_1', tool_input: { file_path: '/w/README.md', content: 'x' } }],
})
const CLAUDE_401 = JSON.stringify({ type: 'result', subtype: 'success', is_error: true, num_turns: 1, result: 'Invalid API key · Please run /login', total_cost_usd: 0, usage: { input_tokens: 0, output_tokens: 0 } })
const CODEX = [
  { type: 'thread.started', thread_id: 't1' },
  { type: 'turn.started' },
  { type: 'item.completed', item: { id: 'i0', type: 'file_change', changes: [{ path: 'a.js', kind: 'add' }] } },
  { type: 'item.completed', item: { id: 'i1', type: 'agent_message', text: 'Added a.js.' } },
  { type: 'turn.completed', usage: { input_tokens: 1200, cached_input_tokens: 0, output_tokens: 80 } },
].map((e) => JSON.stringify(e)).join('\n')
const CODEX_FAILED = [{ type: 'thread.started' }, { type: 'turn.started' }, { type: 'error', message: 'unexpected status 401 Unauthorized' }, { type: 'turn.failed', error: { message: 'unexpected status 401 Unauthorized: invalid key' } }]
  .map((e) => JSON.stringify(e)).join('\n')
const GEMINI = JSON.stringify({
  response: 'Done: wrote a.js',
  stats: { models: { 'gemini-2.5-pro': { api: { totalRequests: 3, totalErrors: 0 }, tokens: { prompt: 900, candidates: 40, total: 940 } } }, tools: { totalCalls: 1 } },
})

describe("an agent's machine-readable output", () => {
  it('Claude Code: message, cost, tokens (cache included), turns and the tools it was refused', () => {
    expect(readAgentOutput(CLAUDE_OK)).toEqual({
      format: 'claude-json', message: 'Wrote src/a.js.', error: null, permission_denials: ['Write: /w/README.md'],
      usage: { input_tokens: 250, output_tokens: 24, turns: 2, cost_usd: 0.00128 },
    })
    expect(readAgentOutput(CLAUDE_401)).toMatchObject({ error: 'Invalid API key · Please run /login' })
  })

  it('Codex: the last agent message, usage added over turns, no cost; a failed turn is the error', () => {
    expect(readAgentOutput(CODEX)).toEqual({
      format: 'codex-jsonl', message: 'Added a.js.', error: null, permission_denials: [],
      usage: { input_tokens: 1200, output_tokens: 80, turns: 2, cost_usd: null },
    })
    expect(readAgentOutput(CODEX_FAILED)).toMatchObject({ error: 'unexpected status 401 Unauthorized: invalid key', usage: { turns: null } })
    // Codex 0.169: a retry is an `error` event, a warning an `error` item; the turn that completes after them is no failure.
    const recovered = [
      { type: 'turn.started' },
      { type: 'error', message: 'Reconnecting... 1/5 (unexpected status 503 Service Unavailable: overloaded)' },
      { type: 'item.completed', item: { id: 'item_0', type: 'error', message: 'Falling back from WebSockets to HTTPS transport.' } },
      { type: 'item.completed', item: { id: 'item_1', type: 'agent_message', text: 'Added a.js.' } },
      { type: 'turn.completed', usage: { input_tokens: 1200, output_tokens: 80 } },
    ].map((e) => JSON.stringify(e)).join('\n')
    expect(readAgentOutput(recovered)).toMatchObject({ message: 'Added a.js.', error: null, usage: { turns: 1 } })
  })

  it('Codex: turns are its model requests, each tool call and the final answer (one turn.completed ends a whole exec)', () => {
    // Codex 0.169 `exec --json` against our scripted model: the model wrote a file, read it back, then answered.
    const threeRequests = [
      { type: 'thread.started', thread_id: 't1' },
      { type: 'turn.started' },
      { type: 'item.started', item: { id: 'item_1', type: 'file_change', changes: [{ path: '/w/a.txt', kind: 'add' }], status: 'in_progress' } },
      { type: 'item.completed', item: { id: 'item_1', type: 'file_change', changes: [{ path: '/w/a.txt', kind: 'add' }], status: 'completed' } },
      { type: 'item.started', item: { id: 'item_2', type: 'command_execution', command: "cat -- 'a.txt'", status: 'in_progress' } },
      { type: 'item.completed', item: { id: 'item_2', type: 'command_execution', command: "cat -- 'a.txt'", exit_code: 0, status: 'completed' } },
      { type: 'item.completed', item: { id: 'item_3', type: 'agent_message', text: 'done' } },
      { type: 'turn.completed', usage: { input_tokens: 3600, output_tokens: 240 } },
    ].map((e) => JSON.stringify(e)).join('\n')
    expect(readAgentOutput(threeRequests)?.usage.turns).toBe(3)
  })

  it('Gemini CLI: response and the tokens of every model', () => {
    expect(readAgentOutput(GEMINI)).toEqual({
      format: 'gemini-json', message: 'Done: wrote a.js', error: null, permission_denials: [],
      usage: { input_tokens: 900, output_tokens: 40, turns: 3, cost_usd: null },
    })
    expect(readAgentOutput(JSON.stringify({ error: { type: 'FatalAuthenticationError', message: 'API key not valid', code: 41 } }))).toMatchObject({ error: 'API key not valid' })
  })

  it('Gemini CLI stream-json: the last text between tool calls, the refused tools, the tokens; a failed result is the error', () => {
    // Gemini CLI 0.61 `--output-format stream-json` against our scripted model server (a planner refused write_file).
    const stream = (...events: object[]) => [{ type: 'init', session_id: 's1', model: 'auto' }, { type: 'message', role: 'user', content: 'Plan it.' }, ...events]
      .map((e) => JSON.stringify(e)).join('\n')
    const refused = stream(
      { type: 'message', role: 'assistant', content: 'Let me ', delta: true },
      { type: 'message', role: 'assistant', content: 'write it.', delta: true },
      { type: 'tool_use', tool_name: 'write_file', tool_id: 'w1', parameters: { file_path: '/w/README.md', content: 'x' } },
      { type: 'tool_result', tool_id: 'w1', status: 'error', error: { type: 'tool_not_registered', message: 'Tool "write_file" not found.' } },
      { type: 'message', role: 'assistant', content: 'Here is the plan.', delta: true },
      { type: 'result', status: 'success', stats: { total_tokens: 3840, input_tokens: 3600, output_tokens: 240, tool_calls: 1, models: {} } },
    )
    expect(readAgentOutput(refused)).toEqual({
      format: 'gemini-json', message: 'Here is the plan.', error: null, permission_denials: ['write_file: /w/README.md'],
      usage: { input_tokens: 3600, output_tokens: 240, turns: 2, cost_usd: null },
    })
    // The turns are the model's requests: one that called write_file, and the one that answered.
    expect(readAgentOutput(refused)?.usage.turns).toBe(2)
    // At `model.maxSessionTurns` 1 the CLI stops before its second request, and says why.
    const limited = readAgentOutput(stream(
      { type: 'tool_use', tool_name: 'write_file', tool_id: 'w1', parameters: { file_path: '/w/a.txt', content: '42' } },
      { type: 'tool_result', tool_id: 'w1', status: 'success' },
      { type: 'result', status: 'error', error: { type: 'FatalTurnLimitedError', message: 'Reached max session turns for this session. Increase the number of turns by specifying maxSessionTurns in settings.json.' }, stats: {} },
    ))
    expect(limited).toMatchObject({ error: expect.stringMatching(/^Reached max session turns/), usage: { turns: 1 } })
    const failed = stream({ type: 'result', status: 'error', error: { type: 'unknown', message: '[API Error: {"error":{"code":401,"message":"API key not valid."}}]' }, stats: { input_tokens: 0, output_tokens: 0 } })
    expect(readAgentOutput(failed)).toMatchObject({ message: null, error: '[API Error: {"error":{"code":401,"message":"API key not valid."}}]' })
  })

  it('anything else is text: its last lines are the message, and nothing is reported as 0', () => {
    const report = readAgentOutput('Applied edit to a.js\nTokens: 2.1k sent\n')!
    expect(report).toMatchObject({ format: 'text', message: 'Applied edit to a.js\nTokens: 2.1k sent', usage: { cost_usd: null, turns: null } })
    expect(formatUsage(report.usage)).toBe('not reported')
    expect(readAgentOutput('  \n')).toBeUndefined()
  })

  it('usage adds up over runs and tasks; a number stays "not reported" until some run reports it', () => {
    const run = (attempt: number, output: string) => ({ attempt, exit_code: 0, signal: null, timed_out: false, duration_ms: 1, output_tail: '', agent: readAgentOutput(output)! })
    const result = (runs: ReturnType<typeof run>[]) => ({
      task_id: 'T', status: 'completed' as const, started_at: null, executed_at: null, duration_ms: 1, files_modified: [], commit_hash: null,
      tests_passed: null, convergence_verified: [], attempts: runs.length, error: null, executor_runs: runs,
    })
    const usage = runUsage({
      solution_id: 'S', issue_id: 'ISS-1', plan_hash: 'h', status: 'completed', started_at: '', executed_at: null,
      tasks: { T1: result([run(1, CLAUDE_OK), run(2, CLAUDE_OK)]), T2: result([run(1, CODEX)]) },
    })
    expect(usage).toEqual({ input_tokens: 1700, output_tokens: 128, turns: 6, cost_usd: 0.00256 })
    expect(formatUsage(usage!)).toBe('$0.0026 · 1,828 tokens · 6 turns')
  })
})

describe("a read-only planner's answer", () => {
  it('is the plan: its json block, or the outermost braces of the text', () => {
    expect(planFromAgentMessage('Here is the plan:\n\n```json\n{ "tasks": [] }\n```\nDone.')).toBe('{ "tasks": [] }')
    expect(planFromAgentMessage('{"id": "x", "tasks": [{"id": "T1"}]}')).toBe('{"id": "x", "tasks": [{"id": "T1"}]}')
    expect(planFromAgentMessage('I could not plan this issue.')).toBeUndefined()
  })
})

describe('agent presets', () => {
  it.each(AGENT_NAMES)('%s: the executor writes its output where Converge reads it; the planner runs read-only from the prompt file', (name) => {
    const { command, preset } = agentCommand(name, 'executor')
    expect(preset).toBe(AGENT_PRESETS[name])
    expect(command).toContain('$CONVERGE_PROMPT_FILE')
    const planner = agentCommand(` ${name} `, 'planner').command
    expect(planner).toContain('$CONVERGE_PLAN_PROMPT_FILE')
    // Issue and plan text never reach a command line: only file names in variables.
    expect(planner).not.toMatch(/\$\(cat/)
  })

  it('a line of shell, `none` and empty stay as they are', () => {
    expect(agentCommand('node tools/agent.mjs', 'executor')).toEqual({ command: 'node tools/agent.mjs' })
    expect(agentCommand('none', 'executor')).toEqual({ command: 'none' })
    expect(agentCommand('', 'planner')).toEqual({ command: '' })
  })

  it('the read-only flags of each planner', () => {
    expect(AGENT_PRESETS['claude-code'].planner).toMatch(/--permission-mode plan .*--disallowedTools Bash,Edit,Write/)
    expect(AGENT_PRESETS.codex.planner).toContain('--sandbox read-only')
    expect(AGENT_PRESETS.gemini.planner).toMatch(/"write_file", "replace", "run_shell_command", "enter_plan_mode", "exit_plan_mode".*--approval-mode default --policy/)
    expect(AGENT_PRESETS.aider.planner).toContain('--chat-mode ask')
  })

  it('max-turns: Claude Code takes --max-turns; Codex and Gemini CLI are counted; aider is refused', () => {
    expect(AGENT_PRESETS['claude-code'].executor).toContain('${CONVERGE_MAX_TURNS:+--max-turns "$CONVERGE_MAX_TURNS"}')
    expect(AGENT_NAMES.map((name) => AGENT_PRESETS[name].turnLimit)).toEqual(['flag', 'counted', 'counted', 'none'])
    expect(['claude-code', 'codex', 'gemini', 'node tools/agent.mjs'].map(maxTurnsRefusal)).toEqual([undefined, undefined, undefined, undefined])
    expect(maxTurnsRefusal(' aider ')).toMatch(/^max-turns cannot be held with the aider preset: aider reports no turns and takes no turn limit/)
  })

  it('codex: the key is CODEX_API_KEY, which `codex exec` reads (it sends no OPENAI_API_KEY); no --full-auto, which 0.169 rejects', () => {
    expect(AGENT_PRESETS.codex.apiKey).toBe('CODEX_API_KEY')
    for (const role of ['executor', 'planner'] as const) expect(AGENT_PRESETS.codex[role]).not.toContain('--full-auto')
  })
})
