import { describe, expect, it } from 'vitest'
import { readAgentOutput } from '../../src/agents/agent-output.js'
import { credentialFailure, credentialFailureText } from '../../src/agents/credentials.js'
import { runStop } from '../../src/agents/run-stop.js'
import { AGENT_PRESETS } from '../../src/agents/presets.js'

const run = (exitCode: number | null, output: string, outputTail = '') => ({ exitCode, agent: readAgentOutput(output) ?? null, outputTail })
const lines = (...events: object[]) => events.map((e) => JSON.stringify(e)).join('\n')

describe('a credential failure in what an agent CLI printed', () => {
  // The outputs as the real CLIs print them against our scripted model servers, refusing their key.
  it.each([
    ['claude-code', JSON.stringify({ type: 'result', subtype: 'success', is_error: true, num_turns: 1, result: 'Invalid API key · Please run /login', usage: {} }), 'Invalid API key · Please run /login'],
    ['claude-code', JSON.stringify({ type: 'result', subtype: 'success', is_error: true, result: 'Failed to authenticate. API Error: 401 {"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}' }), 'Failed to authenticate. API Error: 401 invalid x-api-key'],
    ['codex', lines({ type: 'turn.started' }, { type: 'turn.failed', error: { message: 'unexpected status 401 Unauthorized: Incorrect API key provided: sk-wrong***6789., url: http://127.0.0.1:1/v1/responses' } }), 'unexpected status 401 Unauthorized: Incorrect API key provided'],
    ['gemini', lines({ type: 'init', session_id: 's' }, { type: 'result', status: 'error', error: { type: 'unknown', message: '[API Error: {"error":{"code":400,"message":"API key not valid. Please pass a valid API key.","status":"INVALID_ARGUMENT"}}]' } }), '[API Error: API key not valid. Please pass a valid API key.]'],
  ] as const)('%s: its words, and the variable to set', (name, output, said) => {
    const failure = credentialFailure(run(1, output), AGENT_PRESETS[name])!
    expect(failure.said).toContain(said)
    expect(failure.said).not.toContain('{')
    expect(credentialFailureText(failure)).toMatch(new RegExp(`^the agent's credentials were refused: .*; set ${AGENT_PRESETS[name].apiKey} \\(`))
  })

  it('a missing key that the CLI reports on stderr only, before any output', () => {
    const gemini = credentialFailure(run(41, '', 'When using Gemini API, you must specify the GEMINI_API_KEY environment variable.\nUpdate your environment and try again'), AGENT_PRESETS.gemini)
    expect(gemini?.said).toBe('When using Gemini API, you must specify the GEMINI_API_KEY environment variable.')
    expect(credentialFailure(run(1, '', 'Error: Not logged in · Please run /login'), AGENT_PRESETS['claude-code'])?.said).toBe('Error: Not logged in · Please run /login')
  })

  it("a workflow's own command: the agent's words and a general hint", () => {
    expect(credentialFailure(run(1, '', 'openai.AuthenticationError: 401 Unauthorized'), undefined)).toEqual({ said: 'openai.AuthenticationError: 401 Unauthorized', fix: "check the agent's API key or login" })
  })

  it('not a credential failure: a run that worked (whatever it says), a rate limit, an overload, a crash', () => {
    expect(credentialFailure(run(0, JSON.stringify({ type: 'result', is_error: false, result: 'Fixed the 401 handler: an invalid API key is now refused.' })), AGENT_PRESETS['claude-code'])).toBeUndefined()
    expect(credentialFailure(run(1, lines({ type: 'turn.failed', error: { message: 'exceeded retry limit, last status: 429 Too Many Requests' } })), AGENT_PRESETS.codex)).toBeUndefined()
    expect(credentialFailure(run(1, JSON.stringify({ type: 'result', is_error: true, result: 'API Error: 529 Overloaded' })), AGENT_PRESETS['claude-code'])).toBeUndefined()
    expect(credentialFailure(run(137, '', 'Killed'), AGENT_PRESETS.gemini)).toBeUndefined()
  })
})

describe('an agent run that ends its task', () => {
  it('a refused key, whatever the limits', () => {
    const refused = run(1, JSON.stringify({ type: 'result', is_error: true, result: 'Invalid API key · Fix external API key' }))
    expect(runStop(refused, AGENT_PRESETS['claude-code'], undefined)).toBe(
      "the agent's credentials were refused: Invalid API key · Fix external API key; set ANTHROPIC_API_KEY (an Anthropic API key, from a secret in the step's `env:`)")
  })

  it('max-turns: more turns than the limit (counted), or the CLI stopping itself there (its words)', () => {
    const codex = run(0, lines(
      { type: 'item.completed', item: { id: 'i1', type: 'file_change', changes: [] } },
      { type: 'item.completed', item: { id: 'i2', type: 'command_execution', command: 'cat a' } },
      { type: 'turn.completed', usage: { input_tokens: 1, output_tokens: 1 } },
    ))
    expect(runStop(codex, AGENT_PRESETS.codex, 1)).toBe('the agent took 3 turns, more than max-turns 1')
    expect(runStop(codex, AGENT_PRESETS.codex, 3)).toBeUndefined()
    expect(runStop(codex, AGENT_PRESETS.codex, undefined)).toBeUndefined()
    const claude = run(1, JSON.stringify({ type: 'result', subtype: 'error_max_turns', is_error: true, num_turns: 2 }))
    expect(runStop(claude, AGENT_PRESETS['claude-code'], 1)).toBe('the agent took 2 turns, more than max-turns 1')
    const gemini = run(53, lines({ type: 'init', session_id: 's' }, { type: 'result', status: 'error', error: { type: 'FatalTurnLimitedError', message: 'Reached max session turns for this session.' } }))
    expect(runStop(gemini, AGENT_PRESETS.gemini, 1)).toBe('the agent stopped at max-turns 1: Reached max session turns for this session.')
  })
})
