/**
 * The agent CLIs of the real-agent suites (tests/agents/real-cli-suite.ts, examples.test.ts): where they are
 * installed, and for each preset its scripted model server and the environment a user sets for it as
 * docs/agents.md says, plus the one thing a test needs that a user does not: the API's address, our server.
 */
import { mkdir, writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import type { AgentName } from '../../src/agents/presets.js'
import { startAnthropicServer } from './model-servers/anthropic.js'
import { startGeminiServer } from './model-servers/gemini.js'
import { codexConfig, startOpenAIServer } from './model-servers/openai.js'
import type { ModelServer, ModelStep, ModelTurn, Scenario, ServerOptions } from './model-servers/types.js'

/** Where scripts/install-agents.mjs installs the CLIs, at their pinned versions. */
export const BIN = resolve(process.env.CONVERGE_AGENT_CLIS_DIR ?? join(import.meta.dirname, '..', '..', '.cache', 'agent-clis'), 'node_modules', '.bin')

/** The key each CLI is given, and the model server accepts; a wrong one is refused as the vendor's API does. */
export const KEYS = { 'claude-code': 'sk-ant-scripted-0123456789', codex: 'sk-scripted-0123456789', gemini: 'AIza-scripted-0123456789' }

/**
 * One preset under test: its model server, and the environment a user sets for it as docs/agents.md says (the
 * preset's key variable), plus the one thing a test needs that a user does not: the API's address, our server.
 */
export interface AgentUnderTest {
  preset: Extract<AgentName, 'claude-code' | 'codex' | 'gemini'>
  startModel(scenario: Scenario, options: ServerOptions): Promise<ModelServer>
  /**
   * Writes what the CLI reads from its home to find `model` and returns the environment: the key (`key`, the right
   * one unless a test says otherwise) in the preset's variable. `fewRetries`: the CLI's documented setting that
   * shortens its retries, for the tests of API errors it would otherwise retry for minutes.
   */
  setUp(model: ModelServer, home: string, key: string, fewRetries: boolean): Promise<Record<string, string>>
  /** The API errors to answer with (a rate limit, an overload), and what the agent then says. */
  errors: Array<[status: number, message: string, says: RegExp]>
  /** What the CLI says when the API refuses its key. */
  refusedKey: RegExp
  /** Whether the CLI reports its cost in dollars (else tokens only). */
  reportsCost: boolean
  /** Whether the CLI's report lists the tool uses it refused (else the refusal is the tool's own error). */
  reportsDenials: boolean
}

export const AGENTS: AgentUnderTest[] = [
  {
    preset: 'claude-code',
    startModel: startAnthropicServer,
    setUp: async (model, _home, key, fewRetries) => ({
      ANTHROPIC_BASE_URL: model.url,
      ANTHROPIC_API_KEY: key,
      // No calls to hosts the test cannot reach (updates, telemetry): not about the model or the key.
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      DISABLE_AUTOUPDATER: '1',
      // Claude Code retries a failed request ten times with a growing delay (a 401: three minutes).
      ...(fewRetries ? { CLAUDE_CODE_MAX_RETRIES: '0' } : {}),
    }),
    errors: [[429, 'rate_limit_error: too many requests', /429|rate|too many/i], [529, 'Overloaded', /529|overloaded/i]],
    refusedKey: /Invalid API key/,
    reportsCost: true,
    // --disallowedTools takes Write away altogether: the call fails as an unknown tool, not as a denial.
    reportsDenials: false,
  },
  {
    preset: 'codex',
    startModel: startOpenAIServer,
    setUp: async (model, home, key) => {
      // Codex 0.169 takes the API's address from its config only (it ignores OPENAI_BASE_URL): one line, for its
      // own openai provider; the key is the user's CODEX_API_KEY.
      const codexHome = join(home, '.codex')
      await mkdir(codexHome, { recursive: true })
      await writeFile(join(codexHome, 'config.toml'), codexConfig(model.url))
      return { CODEX_API_KEY: key }
    },
    // Codex says only the status of a 429 it gave up on, whatever the body.
    errors: [[429, 'Rate limit reached for requests', /429|rate limit/i], [503, 'The server is overloaded', /overloaded|503/i]],
    refusedKey: /401 Unauthorized: Incorrect API key provided/,
    reportsCost: false,
    reportsDenials: false,
  },
  {
    preset: 'gemini',
    startModel: startGeminiServer,
    setUp: async (model, home, key, fewRetries) => {
      // GOOGLE_GEMINI_BASE_URL (our address) makes the CLI pick "gateway" auth, which headless it refuses: the auth a
      // user's GEMINI_API_KEY alone selects is named in its settings. No usage statistics, update checks or IDE.
      await mkdir(join(home, '.gemini'), { recursive: true })
      await writeFile(join(home, '.gemini', 'settings.json'), JSON.stringify({
        security: { auth: { selectedType: 'gemini-api-key' } },
        general: { enableAutoUpdate: false, enableAutoUpdateNotification: false, ...(fewRetries ? { maxAttempts: 1 } : {}) },
        privacy: { usageStatisticsEnabled: false }, telemetry: { enabled: false }, ide: { enabled: false },
      }))
      return { GOOGLE_GEMINI_BASE_URL: model.url, GEMINI_API_KEY: key }
    },
    errors: [
      [429, 'Resource has been exhausted (e.g. check quota).', /Resource has been exhausted|429/],
      [503, 'The model is overloaded. Please try again later.', /overloaded|503/i],
    ],
    refusedKey: /API key not valid/,
    reportsCost: false,
    reportsDenials: true,
  },
]

/**
 * The model of an executor: for a task "Write <file>" it calls its write tool with 42, then says it is done.
 */
export function executorModel(turn: ModelTurn): ModelStep {
  const file = /# T\d+: Write (\S+)/.exec(turn.prompt)?.[1]
  if (!file) return { kind: 'text', text: 'I do not know this task.' }
  return turn.toolResults === 0 ? { kind: 'write', path: file, content: '42\n' } : { kind: 'text', text: `Wrote 42 to ${file}.` }
}

