/**
 * A scripted Gemini API, as the Gemini CLI uses it (`GOOGLE_GEMINI_BASE_URL`, through the @google/genai SDK):
 * `POST /v1beta/models/{model}:streamGenerateContent?alt=sse` answered as server-sent events of
 * `data: {"candidates":[{"content":{"role":"model","parts":[…]},"finishReason":"STOP"}],"usageMetadata":…}`, and
 * `:generateContent` (the same object as JSON) and `:countTokens`.
 *
 * Requests that declare tools (`tools[].functionDeclarations`) are the agent's main loop: the scenario decides the
 * next step from the prompt, the working directory (the CLI's `<session_context>` lists the "Workspace
 * Directories") and the `functionResponse` parts so far. A `write` step is a `functionCall` of the CLI's own
 * `write_file` tool (`read_file`, `run_shell_command` for the others), so the CLI edits the checkout itself. The
 * CLI also asks side questions without tools — the model router, the next-speaker check, loop detection — mostly
 * with a JSON schema for the answer: those get the simplest object the schema admits (its first enum value, so the
 * next speaker is the user), the others a short text. Errors are answered as Google does:
 * `{"error":{"code","message","status"}}` (a 400 with the reason `API_KEY_INVALID`).
 *
 * The CLI finds us by GOOGLE_GEMINI_BASE_URL and GEMINI_API_KEY, and headless it needs
 * `{"security":{"auth":{"selectedType":"gemini-api-key"}}}` in `$HOME/.gemini/settings.json`; there
 * `"general":{"maxAttempts":1}` keeps it from retrying an error ten times with a backoff of up to 30 s (a refused
 key, a 400, it does not retry).
 */
import { join } from 'node:path'
import { sendJson, serveModel } from './serve.js'
import type { ModelServer, ModelStep, Scenario, ServerOptions } from './types.js'

const STATUSES: Record<number, string> = {
  400: 'INVALID_ARGUMENT', 401: 'UNAUTHENTICATED', 403: 'PERMISSION_DENIED', 404: 'NOT_FOUND',
  429: 'RESOURCE_EXHAUSTED', 500: 'INTERNAL', 503: 'UNAVAILABLE',
}

/** A 400 is how the Gemini API refuses an API key it does not know (a 401 is for OAuth credentials). */
const DETAILS: Record<number, unknown[]> = {
  400: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'API_KEY_INVALID', domain: 'googleapis.com' }],
}

/** Tokens each answer reports, which the CLI adds up in its report (`stats`, per model and in all). */
const USAGE = { promptTokenCount: 1200, candidatesTokenCount: 80, totalTokenCount: 1280 }

interface Part { text?: string; functionCall?: { name: string; args: Record<string, unknown> }; functionResponse?: { response?: unknown } }
interface Content { role?: string; parts?: Part[] }
interface JsonSchema { type?: string; enum?: unknown[]; properties?: Record<string, JsonSchema> }

interface GenerateRequest {
  contents?: Content[]
  tools?: Array<{ functionDeclarations?: unknown[] }>
  generationConfig?: { responseMimeType?: string; responseJsonSchema?: JsonSchema; responseSchema?: JsonSchema }
}

export async function startGeminiServer(scenario: Scenario, options: ServerOptions = {}): Promise<ModelServer> {
  return serveModel<GenerateRequest>(async (request, response, { path, body }) => {
    const method = /^\/v1(?:beta)?\/models\/[^/:]+:(\w+)$/.exec(path)?.[1]
    if (request.method !== 'POST' || !method) return sendJson(response, 404, googleError(404, `Not found: ${path}`))
    // The key comes in x-goog-api-key (or ?key=); Google answers a missing one with a 403, a wrong one with a 400.
    const key = request.headers['x-goog-api-key'] ?? new URL(request.url ?? '/', 'http://localhost').searchParams.get('key')
    if (options.key !== undefined && !key) return sendJson(response, 403, googleError(403, "Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API."))
    if (options.key !== undefined && key !== options.key) return sendJson(response, 400, googleError(400, 'API key not valid. Please pass a valid API key.'))
    if (method === 'countTokens') return sendJson(response, 200, { totalTokens: USAGE.promptTokenCount })

    const contents = body.contents ?? []
    const isMainLoop = body.tools?.some((t) => t.functionDeclarations?.length)
    const results = functionResponses(contents)
    const step: ModelStep = isMainLoop
      ? scenario({ prompt: promptOf(contents), cwd: cwdOf(contents), toolResults: results.length, results })
      : { kind: 'text', text: sideAnswer(body.generationConfig) }
    if (step.kind === 'error') return sendJson(response, step.status, googleError(step.status, step.message))
    const answer = { candidates: [{ content: { role: 'model', parts: [part(step, cwdOf(contents))] }, finishReason: 'STOP', index: 0 }], usageMetadata: USAGE }
    if (method === 'streamGenerateContent') {
      response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' })
      return void response.end(`data: ${JSON.stringify(answer)}\r\n\r\n`)
    }
    sendJson(response, 200, answer)
  }, (response, error) => sendJson(response, 500, googleError(500, String(error))))
}

function part(step: Exclude<ModelStep, { kind: 'error' }>, cwd: string): Part {
  switch (step.kind) {
    case 'text': return { text: step.text }
    case 'write': return { functionCall: { name: 'write_file', args: { file_path: join(cwd, step.path), content: step.content } } }
    case 'read': return { functionCall: { name: 'read_file', args: { file_path: join(cwd, step.path) } } }
    case 'shell': return { functionCall: { name: 'run_shell_command', args: { command: step.command, description: 'Run a command' } } }
  }
}

/** Side questions: a JSON answer when a schema or JSON is asked for, a short text otherwise. */
function sideAnswer(config: GenerateRequest['generationConfig']): string {
  const schema = config?.responseJsonSchema ?? config?.responseSchema
  if (schema) return JSON.stringify(valueOf(schema))
  return config?.responseMimeType === 'application/json' ? '{}' : 'Converge task'
}

/** The simplest value a schema admits (the SDK's schemas spell their types in capitals: OBJECT, STRING …). */
function valueOf(schema: JsonSchema): unknown {
  if (schema.enum?.length) return schema.enum[0]
  switch (schema.type?.toLowerCase()) {
    case 'object': return Object.fromEntries(Object.entries(schema.properties ?? {}).map(([key, value]) => [key, valueOf(value)]))
    case 'array': return []
    case 'integer': case 'number': return 1
    case 'boolean': return false
    default: return 'scripted'
  }
}

function googleError(code: number, message: string) {
  return { error: { code, message, status: STATUSES[code] ?? 'UNKNOWN', ...(DETAILS[code] ? { details: DETAILS[code] } : {}) } }
}

/** The prompt: the first user text that is not the CLI's `<session_context>` (it sends both in the first turn). */
function promptOf(contents: Content[]): string {
  const texts = contents.filter((c) => c.role === 'user').flatMap((c) => c.parts ?? []).map((p) => p.text)
  return texts.find((t): t is string => typeof t === 'string' && !t.startsWith('<session_context>')) ?? ''
}

function functionResponses(contents: Content[]): string[] {
  return contents.flatMap((c) => c.parts ?? []).flatMap((p) => (p.functionResponse ? [responseText(p.functionResponse.response)] : []))
}

/** A tool's result: `{"output": …}` or `{"error": …}`, as the CLI wraps it. */
function responseText(response: unknown): string {
  if (typeof response === 'object' && response !== null) {
    const { output, error } = response as { output?: unknown; error?: unknown }
    if (typeof output === 'string') return output
    if (typeof error === 'string') return error
  }
  return JSON.stringify(response)
}

function cwdOf(contents: Content[]): string {
  const context = contents.flatMap((c) => c.parts ?? []).find((p) => p.text?.startsWith('<session_context>'))?.text ?? ''
  return /\*\*Workspace Directories:\*\*\n\s*- (.+)/.exec(context)?.[1]?.trim() ?? process.cwd()
}
