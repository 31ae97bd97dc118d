/**
 * A scripted Anthropic Messages API, as Claude Code uses it (`ANTHROPIC_BASE_URL`): `POST /v1/messages` with
 * `stream: true`, answered as server-sent events — `message_start`, then per content block `content_block_start`,
 * `content_block_delta` (`text_delta`, or `input_json_delta` for a tool call's input) and `content_block_stop`,
 * then `message_delta` (stop reason `tool_use` or `end_turn`, output tokens) and `message_stop`.
 *
 * Requests that offer tools are the agent's main loop: the scenario decides the next step from the prompt, the
 * working directory (Claude Code tells the model "Primary working directory: …") and the tool results so far. A
 * `write` step is a call of Claude Code's own `Write` tool, so the CLI edits the checkout itself. Requests without
 * tools (titles, summaries) get a short text. Errors are answered as the API does: `{"type":"error","error":…}`.
 */
import type { ServerResponse } from 'node:http'
import { join } from 'node:path'
import { sendJson, serveModel } from './serve.js'
import type { ModelServer, ModelStep, Scenario, ServerOptions } from './types.js'

const ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error', 401: 'authentication_error', 403: 'permission_error', 404: 'not_found_error',
  429: 'rate_limit_error', 500: 'api_error', 529: 'overloaded_error',
}

/** Tokens each answer reports: enough for Claude Code to price the run (its cost is computed from list prices). */
const USAGE = { input: 1200, output: 80 }

interface MessagesRequest {
  model?: string
  stream?: boolean
  tools?: unknown[]
  messages?: Array<{ role: string; content: string | Array<{ type: string; text?: string; content?: unknown }> }>
}

export async function startAnthropicServer(scenario: Scenario, options: ServerOptions = {}): Promise<ModelServer> {
  let toolCalls = 0
  return serveModel<MessagesRequest>(async (request, response, { path, text, body }) => {
    if (request.method !== 'POST' || path !== '/v1/messages') return json(response, 404, { type: 'error', error: { type: 'not_found_error', message: `Not found: ${path}` } })
    // The Messages API takes the key in x-api-key (an OAuth token would come as a bearer).
    if (options.key !== undefined && request.headers['x-api-key'] !== options.key) {
      return json(response, 401, { type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } })
    }

    const messages = body.messages ?? []
    const step: ModelStep = body.tools?.length
      ? scenario({ prompt: promptOf(messages), cwd: cwdOf(text), toolResults: toolResults(messages).length, results: toolResults(messages) })
      : { kind: 'text', text: 'Converge task' }
    if (step.kind === 'error') return json(response, step.status, { type: 'error', error: { type: ERROR_TYPES[step.status] ?? 'api_error', message: step.message } })
    const block = contentBlock(step, cwdOf(text), `toolu_${String(++toolCalls).padStart(4, '0')}`)
    if (body.stream) return stream(response, body.model ?? 'claude', block)
    json(response, 200, {
      id: `msg_${toolCalls}`, type: 'message', role: 'assistant', model: body.model, content: [block.type === 'text' ? { type: 'text', text: block.text } : { type: 'tool_use', id: block.id, name: block.name, input: block.input }],
      stop_reason: block.type === 'text' ? 'end_turn' : 'tool_use', stop_sequence: null, usage: { input_tokens: USAGE.input, output_tokens: USAGE.output },
    })
  }, (response, error) => {
    response.writeHead(500, { 'content-type': 'application/json' })
    response.end(JSON.stringify({ type: 'error', error: { type: 'api_error', message: String(error) } }))
  })
}

type Block = { type: 'text'; text: string } | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> }

function contentBlock(step: Exclude<ModelStep, { kind: 'error' }>, cwd: string, id: string): Block {
  switch (step.kind) {
    case 'text': return { type: 'text', text: step.text }
    case 'write': return { type: 'tool_use', id, name: 'Write', input: { file_path: join(cwd, step.path), content: step.content } }
    case 'read': return { type: 'tool_use', id, name: 'Read', input: { file_path: join(cwd, step.path) } }
    case 'shell': return { type: 'tool_use', id, name: 'Bash', input: { command: step.command, description: 'Run a command' } }
  }
}

function stream(response: ServerResponse, model: string, block: Block): void {
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' })
  const event = (type: string, data: Record<string, unknown>) => response.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`)
  event('message_start', { message: { id: `msg_${Date.now()}`, type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: USAGE.input, output_tokens: 1 } } })
  if (block.type === 'text') {
    event('content_block_start', { index: 0, content_block: { type: 'text', text: '' } })
    event('content_block_delta', { index: 0, delta: { type: 'text_delta', text: block.text } })
  } else {
    event('content_block_start', { index: 0, content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} } })
    event('content_block_delta', { index: 0, delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input) } })
  }
  event('content_block_stop', { index: 0 })
  event('message_delta', { delta: { stop_reason: block.type === 'text' ? 'end_turn' : 'tool_use', stop_sequence: null }, usage: { output_tokens: USAGE.output } })
  event('message_stop', {})
  response.end()
}

function json(response: ServerResponse, status: number, body: unknown): void {
  sendJson(response, status, body, status === 429 || status === 529)
}

/** The text of the first user message (Claude Code puts context reminders before the prompt in the same message). */
function promptOf(messages: NonNullable<MessagesRequest['messages']>): string {
  const first = messages.find((m) => m.role === 'user')
  if (!first) return ''
  return typeof first.content === 'string' ? first.content : first.content.map((c) => c.text ?? '').join('\n')
}

function toolResults(messages: NonNullable<MessagesRequest['messages']>): string[] {
  return messages.flatMap((m) => (typeof m.content === 'string' ? [] : m.content.filter((c) => c.type === 'tool_result').map((c) => contentText(c.content))))
}

function contentText(content: unknown): string {
  if (typeof content === 'string') return content
  if (Array.isArray(content)) return content.map((c) => (typeof c === 'object' && c && 'text' in c ? String(c.text) : '')).join('\n')
  return ''
}

function cwdOf(body: string): string {
  // In the JSON text the newline after the path is the two characters \n.
  return /Primary working directory: (.*?)\\n/.exec(body)?.[1] ?? process.cwd()
}
