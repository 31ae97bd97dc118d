/**
 * A scripted OpenAI Responses API, as the Codex CLI (0.169) uses it: `POST /v1/responses` with `stream: true`,
 * answered as server-sent events — `response.created`, `response.output_item.added`, the item's deltas
 * (`response.output_text.delta`, `response.custom_tool_call_input.delta` or `response.function_call_arguments.delta`),
 * `response.output_item.done` and `response.completed` with the usage. Each answer is one output item: a tool call,
 * after which Codex runs the tool and asks again with its output, or an assistant message, which ends the turn.
 *
 * Codex sends the tools it offers either as `tools` or, in its "responses lite" form (the default model), inside an
 * `additional_tools` input item, in namespaces. It offers one of two tool sets, and the server calls Codex's own:
 * - code mode (the default model): a freeform `exec` tool in the `functions` namespace that runs JavaScript, in which
 *   Codex's tools are `tools.apply_patch(patch)` and `tools.exec_command({ cmd })`;
 * - direct (e.g. `gpt-5.5`): a freeform `apply_patch` tool and an `exec_command` function.
 * A `write` step is an apply_patch `*** Add File:` patch (it creates or overwrites the file), `read` is `cat` through
 * exec_command, `shell` any command through it. Codex tells the model its working directory in the
 * `<environment_context>` (`<cwd>…</cwd>`) of a user message; the prompt is the last user message; tool outputs come
 * back as `custom_tool_call_output` / `function_call_output` items. Errors are answered as the API does:
 * `{"error":{"message","type","param","code"}}`, with `retry-after: 0`.
 *
 * Codex 0.169 does not read OPENAI_BASE_URL: it is pointed here by `openai_base_url` in `$CODEX_HOME/config.toml`
 * (see codexConfig), and sends the key of CODEX_API_KEY as a bearer, which the server checks when given one.
 */
import type { ServerResponse } from 'node:http'
import { sendJson, serveModel } from './serve.js'
import type { ModelServer, ModelStep, Scenario, ServerOptions } from './types.js'

const ERRORS: Record<number, { type: string; code: string }> = {
  401: { type: 'invalid_request_error', code: 'invalid_api_key' },
  429: { type: 'requests', code: 'rate_limit_exceeded' },
}

/** Tokens each answer reports. */
const USAGE = { input: 1200, output: 80 }

interface Tool {
  type: string
  name?: string
  tools?: Tool[]
}

interface InputItem {
  type?: string
  role?: string
  content?: string | Array<{ type: string; text?: string }>
  output?: string | Array<{ type: string; text?: string }>
  tools?: Tool[]
}

interface ResponsesRequest {
  model?: string
  tools?: Tool[]
  input?: InputItem[]
}

type OutputItem =
  | { type: 'message'; id: string; status: 'completed'; role: 'assistant'; content: Array<{ type: 'output_text'; text: string; annotations: [] }> }
  | { type: 'custom_tool_call'; id: string; status: 'completed'; call_id: string; name: string; namespace?: string; input: string }
  | { type: 'function_call'; id: string; status: 'completed'; call_id: string; name: string; arguments: string }

/**
 * The `$CODEX_HOME/config.toml` that points Codex's own `openai` provider at `url` (a ModelServer's, ending in /v1):
 * the one line a test needs that a user does not, as Codex 0.169 takes the API's address from its config only (it
 * ignores OPENAI_BASE_URL). Everything else is as a user has it: the built-in provider, its key variable
 * (CODEX_API_KEY), its retries, and its first try of the Responses WebSocket (which we answer with a 404, so it
 * falls back to HTTPS after a few seconds). `model` picks the model, and with it the tool set.
 */
export function codexConfig(url: string, options: { model?: string } = {}): string {
  return [...(options.model ? [`model = "${options.model}"`] : []), `openai_base_url = "${url}"`, ''].join('\n')
}

export async function startOpenAIServer(scenario: Scenario, options: ServerOptions = {}): Promise<ModelServer> {
  let answers = 0
  return serveModel<ResponsesRequest>(async (request, response, { path, text, body }) => {
    // `codex exec` asks nothing else (no /v1/models: it knows its models); anything else is the API's 404.
    if (request.method !== 'POST' || path !== '/v1/responses') return json(response, 404, apiError(404, `Not found: ${request.method} ${path}`))
    const bearer = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1]
    if (options.key !== undefined && !bearer) return json(response, 401, apiError(401, "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY)."))
    if (options.key !== undefined && bearer !== options.key) return json(response, 401, apiError(401, `Incorrect API key provided: ${bearer!.slice(0, 8)}***${bearer!.slice(-4)}.`))

    const input = body.input ?? []
    const results = toolResults(input)
    const step = scenario({ prompt: promptOf(input), cwd: cwdOf(text), toolResults: results.length, results })
    if (step.kind === 'error') return json(response, step.status, apiError(step.status, step.message))
    stream(response, body.model ?? 'gpt-scripted', outputItem(step, offeredTools(body), ++answers))
  },
  // A scenario that cannot be played is a 400: Codex shows a 400's message, and replaces a 500's with its own.
  (response, error) => json(response, 400, apiError(400, String(error))), '/v1')
}

/** The tools a request offers, by name, with the namespace they are in ('' at the top). */
function offeredTools(body: ResponsesRequest): Map<string, string> {
  const offered = new Map<string, string>()
  const add = (tools: Tool[], namespace: string): void => {
    for (const tool of tools) {
      if (tool.type === 'namespace') add(tool.tools ?? [], tool.name ?? '')
      else if (tool.name) offered.set(tool.name, namespace)
    }
  }
  add(body.tools ?? [], '')
  for (const item of body.input ?? []) if (item.type === 'additional_tools') add(item.tools ?? [], '')
  return offered
}

function outputItem(step: Exclude<ModelStep, { kind: 'error' }>, offered: Map<string, string>, n: number): OutputItem {
  const id = String(n).padStart(4, '0')
  if (step.kind === 'text') return { type: 'message', id: `msg_${id}`, status: 'completed', role: 'assistant', content: [{ type: 'output_text', text: step.text, annotations: [] }] }
  const patch = step.kind === 'write' ? addFilePatch(step.path, step.content) : undefined
  const command = step.kind === 'read' ? `cat -- ${shellQuote(step.path)}` : step.kind === 'shell' ? step.command : undefined
  const custom = (name: string, input: string, namespace = '') =>
    ({ type: 'custom_tool_call' as const, id: `ctc_${id}`, status: 'completed' as const, call_id: `call_${id}`, name, ...(namespace ? { namespace } : {}), input })
  const execNamespace = offered.get('exec')
  if (execNamespace !== undefined) {
    const code = patch !== undefined ? `text(await tools.apply_patch(${JSON.stringify(patch)}))` : `text((await tools.exec_command({ cmd: ${JSON.stringify(command)} })).output)`
    return custom('exec', code, execNamespace)
  }
  if (patch !== undefined && offered.has('apply_patch')) return custom('apply_patch', patch)
  if (command !== undefined && offered.has('exec_command')) {
    return { type: 'function_call', id: `fc_${id}`, status: 'completed', call_id: `call_${id}`, name: 'exec_command', arguments: JSON.stringify({ cmd: command }) }
  }
  throw new Error(`no tool for a ${step.kind} step among the tools offered: ${[...offered.keys()].join(', ')}`)
}

/** An apply_patch patch that creates `path` (or replaces it) with `content`: every line is added. */
function addFilePatch(path: string, content: string): string {
  const lines = content.replace(/\n$/, '').split('\n')
  return ['*** Begin Patch', `*** Add File: ${path}`, ...lines.map((line) => `+${line}`), '*** End Patch', ''].join('\n')
}

function stream(response: ServerResponse, model: string, item: OutputItem): void {
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' })
  let sequence = 0
  const event = (type: string, data: Record<string, unknown>) => response.write(`event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: sequence++, ...data })}\n\n`)
  const id = `resp_${item.id}`
  const usage = { input_tokens: USAGE.input, input_tokens_details: { cached_tokens: 0 }, output_tokens: USAGE.output, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: USAGE.input + USAGE.output }
  event('response.created', { response: { id, object: 'response', status: 'in_progress', model, output: [] } })
  const at = { item_id: item.id, output_index: 0 }
  if (item.type === 'message') {
    event('response.output_item.added', { output_index: 0, item: { ...item, status: 'in_progress', content: [] } })
    event('response.output_text.delta', { ...at, content_index: 0, delta: item.content[0]!.text })
  } else if (item.type === 'custom_tool_call') {
    event('response.output_item.added', { output_index: 0, item: { ...item, status: 'in_progress', input: '' } })
    event('response.custom_tool_call_input.delta', { ...at, delta: item.input })
  } else {
    event('response.output_item.added', { output_index: 0, item: { ...item, status: 'in_progress', arguments: '' } })
    event('response.function_call_arguments.delta', { ...at, delta: item.arguments })
  }
  event('response.output_item.done', { output_index: 0, item })
  event('response.completed', { response: { id, object: 'response', status: 'completed', model, output: [item], usage } })
  response.end()
}

function apiError(status: number, message: string): { error: { message: string; type: string; param: null; code: string | null } } {
  const { type, code } = ERRORS[status] ?? { type: status >= 500 ? 'server_error' : 'invalid_request_error', code: null }
  return { error: { message, type, param: null, code } }
}

function json(response: ServerResponse, status: number, body: unknown): void {
  sendJson(response, status, body, status === 429 || status >= 500)
}

/** The text of the last user message: Codex sends its context (AGENTS.md, environment) in an earlier one. */
function promptOf(input: InputItem[]): string {
  const last = input.filter((item) => item.role === 'user' && (item.type ?? 'message') === 'message').at(-1)
  return last ? partsText(last.content, '\n') : ''
}

function toolResults(input: InputItem[]): string[] {
  return input.filter((item) => item.type === 'custom_tool_call_output' || item.type === 'function_call_output').map((item) => partsText(item.output, ''))
}

function partsText(content: InputItem['content'], separator: string): string {
  if (typeof content === 'string') return content
  return (content ?? []).map((part) => part.text ?? '').join(separator)
}

function cwdOf(body: string): string {
  return /<cwd>(.*?)<\/cwd>/.exec(body)?.[1] ?? process.cwd()
}

function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`
}
