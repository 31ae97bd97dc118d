/**
 * What an agent CLI said about its run, read from its machine-readable output (`$CONVERGE_AGENT_OUTPUT_FILE`):
 * - Claude Code `--output-format json`: one result object (`result`, `is_error`, `num_turns`, `total_cost_usd`,
 *   `usage`, `permission_denials`);
 * - Codex `exec --json`: JSON lines of events (`item.completed` agent messages and tool calls, `turn.completed`
 *   usage, `turn.failed` / `error`);
 * - Gemini CLI `--output-format json`: one object (`response`, `stats.models.*.tokens`, `error`), or
 *   `--output-format stream-json`: JSON lines of events (`init`, `message` deltas, `tool_use`, `tool_result`, `result`);
 * - anything else: plain text, whose last lines are the message.
 * The form is recognised from the content, so a workflow's own template that asks for one of these works too.
 * Numbers an agent does not report stay null ("not reported"), never 0.
 */
import type { AgentReport, AgentUsage } from '../model/index.js'

const MAX_MESSAGE = 4000
const NOT_REPORTED: AgentUsage = { input_tokens: null, output_tokens: null, turns: null, cost_usd: null }

/** The report in an agent's output; undefined when the output is empty. */
export function readAgentOutput(text: string): AgentReport | undefined {
  const trimmed = text.trim()
  if (!trimmed) return undefined
  const single = parseJson(trimmed)
  const lines = trimmed.split('\n').map((line) => parseJson(line.trim()))
  if (lines.some(isGeminiEvent)) return geminiStreamReport(lines.filter(isObject))
  if (isObject(single) && single.type === 'result') return claudeReport(single)
  if (isObject(single) && ('response' in single || 'stats' in single || 'error' in single)) return geminiReport(single)
  if (lines.some((e) => isObject(e) && typeof e.type === 'string' && /^(thread|turn|item)\.|^error$/.test(e.type))) return codexReport(lines.filter(isObject))
  return { format: 'text', message: cut(trimmed.split('\n').slice(-20).join('\n')), error: null, permission_denials: [], usage: NOT_REPORTED }
}

function claudeReport(result: Record<string, unknown>): AgentReport {
  const usage = isObject(result.usage) ? result.usage : {}
  const input = sum([usage.input_tokens, usage.cache_creation_input_tokens, usage.cache_read_input_tokens])
  const message = typeof result.result === 'string' ? result.result : null
  const failed = result.is_error === true || (typeof result.subtype === 'string' && result.subtype.startsWith('error'))
  const denials = Array.isArray(result.permission_denials) ? result.permission_denials.filter(isObject).map(denial) : []
  return {
    format: 'claude-json',
    message: message === null ? null : cut(message),
    error: failed ? cut(message || String(result.subtype ?? 'error')) : null,
    permission_denials: denials,
    usage: {
      input_tokens: input,
      output_tokens: number(usage.output_tokens),
      turns: number(result.num_turns),
      cost_usd: number(result.total_cost_usd),
    },
  }
}

function denial(d: Record<string, unknown>): string {
  const input = isObject(d.tool_input) ? d.tool_input : {}
  const what = [input.file_path, input.command, input.path, input.pattern].find((v) => typeof v === 'string') as string | undefined
  return `${String(d.tool_name ?? 'a tool')}${what ? `: ${what}` : ''}`
}

/** Codex items that are not a tool the model called: its messages, reasoning, plan and warnings. */
const CODEX_NOT_TOOLS = new Set(['agent_message', 'reasoning', 'todo_list', 'error'])

/**
 * Codex's `error` events include its retries ("Reconnecting... 1/5 (…)"), and its `error` items are warnings: the
 * error is a failed turn's, or the last `error` event that no completed turn followed.
 *
 * Turns are model requests, as Claude Code counts them: Codex reports none, and one `turn.completed` ends a whole
 * `codex exec`. Each tool call (a file change, a command …) answers a request and each completed turn's final
 * answer is one more; a request that calls several tools at once counts once per tool, so the count errs high.
 */
function codexReport(events: Record<string, unknown>[]): AgentReport {
  let message: string | null = null
  let failed: string | null = null
  let unrecovered: string | null = null
  const denials: string[] = []
  let input: number | null = null
  let output: number | null = null
  let turns = 0
  const toolCalls = new Set<unknown>()
  for (const event of events) {
    const item = isObject(event.item) ? event.item : undefined
    if (event.type === 'item.completed' && item?.type === 'agent_message' && typeof item.text === 'string') message = item.text
    if (typeof event.type === 'string' && event.type.startsWith('item.') && typeof item?.type === 'string' && !CODEX_NOT_TOOLS.has(item.type)) toolCalls.add(item.id)
    if (event.type === 'turn.completed') {
      turns++
      const usage = isObject(event.usage) ? event.usage : {}
      input = add(input, number(usage.input_tokens))
      output = add(output, number(usage.output_tokens))
      unrecovered = null
    }
    if (event.type === 'turn.failed' && isObject(event.error) && typeof event.error.message === 'string') failed = event.error.message
    if (event.type === 'error' && typeof event.message === 'string') unrecovered = event.message
  }
  const error = failed ?? unrecovered
  return {
    format: 'codex-jsonl',
    message: message === null ? null : cut(message),
    error: error === null ? null : cut(error),
    permission_denials: denials,
    usage: { input_tokens: input, output_tokens: output, turns: turns + toolCalls.size || null, cost_usd: null },
  }
}

function geminiReport(result: Record<string, unknown>): AgentReport {
  const stats = isObject(result.stats) ? result.stats : {}
  const models = isObject(stats.models) ? Object.values(stats.models).filter(isObject) : []
  const tokens = models.map((m) => (isObject(m.tokens) ? m.tokens : {}))
  const requests = models.map((m) => (isObject(m.api) ? number(m.api.totalRequests) : null))
  const error = isObject(result.error) ? String(result.error.message ?? result.error.type ?? 'error') : typeof result.error === 'string' ? result.error : null
  return {
    format: 'gemini-json',
    message: typeof result.response === 'string' ? cut(result.response) : null,
    error: error === null ? null : cut(error),
    permission_denials: [],
    usage: {
      input_tokens: sum(tokens.map((t) => t.prompt)),
      output_tokens: sum(tokens.map((t) => t.candidates)),
      turns: sum(requests),
      cost_usd: null,
    },
  }
}

/** Gemini's stream starts with `init` (session and model) and ends with `result` (`status`, `stats`). */
function isGeminiEvent(event: unknown): boolean {
  return isObject(event) && ((event.type === 'init' && typeof event.session_id === 'string') || (event.type === 'result' && typeof event.status === 'string'))
}

/** How Gemini CLI refuses a tool: headless, a tool that needs an approval is not registered at all. */
const GEMINI_REFUSALS = new Set(['tool_not_registered', 'policy_violation'])

/**
 * Gemini CLI's stream: the message is the last text the model said between its tool calls (it comes in deltas),
 * the `result` event has the tokens and, when the run failed, the error (an `error` event when no result came).
 * Turns are the main loop's model requests, as the CLI counts them against `model.maxSessionTurns`: one per run of
 * tool calls the model asked for together (the `tool_use` events before their `tool_result`s), and the final answer.
 */
function geminiStreamReport(events: Record<string, unknown>[]): AgentReport {
  const texts = ['']
  const calls = new Map<unknown, Record<string, unknown>>()
  const denials: string[] = []
  let requests = 0
  let asking = false
  for (const event of events) {
    if (event.type === 'message' && event.role === 'assistant' && typeof event.content === 'string') texts.push(texts.pop()! + event.content)
    if (event.type === 'tool_use') {
      if (!asking) requests++
      asking = true
      calls.set(event.tool_id, event)
      texts.push('')
    } else if (event.type === 'tool_result') asking = false
    if (event.type === 'tool_result' && isObject(event.error) && GEMINI_REFUSALS.has(String(event.error.type))) {
      const call = calls.get(event.tool_id)
      denials.push(denial({ tool_name: call?.tool_name, tool_input: call?.parameters }))
    }
  }
  const result = events.findLast((e) => e.type === 'result')
  const stats = isObject(result?.stats) ? result.stats : {}
  const failure = result
    ? result.status === 'error' && isObject(result.error) ? result.error.message : undefined
    : events.findLast((e) => e.type === 'error' && e.severity === 'error')?.message
  const message = texts.findLast((t) => t.trim())
  return {
    format: 'gemini-json',
    message: message === undefined ? null : cut(message),
    error: typeof failure === 'string' ? cut(failure) : null,
    permission_denials: denials,
    usage: {
      input_tokens: number(stats.input_tokens), output_tokens: number(stats.output_tokens),
      turns: result?.status === 'success' ? requests + 1 : requests || null, cost_usd: null,
    },
  }
}

/**
 * The plan in a planner agent's final message: its ```json block, or the outermost `{ … }` of the text. A
 * read-only planner cannot write `$CONVERGE_PLAN_FILE`; its answer is the plan.
 */
export function planFromAgentMessage(message: string): string | undefined {
  const fenced = /```(?:json)?[ \t]*\n([\s\S]*?)\n[ \t]*```/i.exec(message)?.[1]
  if (fenced?.trim().startsWith('{')) return fenced.trim()
  const start = message.indexOf('{')
  const end = message.lastIndexOf('}')
  return start >= 0 && end > start ? message.slice(start, end + 1) : undefined
}

/** Adds up what several runs reported; a number stays null only when no run reported it. */
export function addUsage(a: AgentUsage, b: AgentUsage): AgentUsage {
  return {
    input_tokens: add(a.input_tokens, b.input_tokens),
    output_tokens: add(a.output_tokens, b.output_tokens),
    turns: add(a.turns, b.turns),
    cost_usd: a.cost_usd === null && b.cost_usd === null ? null : Math.round(((a.cost_usd ?? 0) + (b.cost_usd ?? 0)) * 1e6) / 1e6,
  }
}

export const NO_USAGE: AgentUsage = NOT_REPORTED

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function number(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : null
}

function sum(values: unknown[]): number | null {
  return values.reduce<number | null>((total, v) => add(total, number(v)), null)
}

function add(a: number | null, b: number | null): number | null {
  return a === null ? b : b === null ? a : a + b
}

function cut(text: string): string {
  return text.length > MAX_MESSAGE ? `${text.slice(0, MAX_MESSAGE - 1)}…` : text
}
