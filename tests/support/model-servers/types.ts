/**
 * Scripted model servers: real HTTP servers on 127.0.0.1 that speak a model vendor's API the way its agent CLI uses
 * it, and play a scenario instead of a model — so the real CLI, not a stand-in, reads and edits the checkout
 * through its own tools. One module per vendor (anthropic.ts, openai.ts, gemini.ts); this is what they share.
 */

/** One step of the model's side of a conversation. */
export type ModelStep =
  /** Calls the CLI's file-writing tool: `path` relative to the agent's working directory. */
  | { kind: 'write'; path: string; content: string }
  /** Calls the CLI's file-reading tool. */
  | { kind: 'read'; path: string }
  /** Calls the CLI's shell tool. */
  | { kind: 'shell'; command: string }
  /** Ends the turn with this text as the final message. */
  | { kind: 'text'; text: string }
  /** Answers the request with an API error, as the vendor does (401, 429, 529 / 503 overloaded). */
  | { kind: 'error'; status: number; message: string }

/** What the scenario is told about a request of the agent's main loop. */
export interface ModelTurn {
  /** The first user message's text (the prompt Converge wrote, as the CLI sent it). */
  prompt: string
  /** The agent's working directory, as the CLI told the model. */
  cwd: string
  /** Tool results the conversation holds so far (0 on the first request). */
  toolResults: number
  /** The text of the tool results so far, in order. */
  results: string[]
}

/** The scenario: what the model does next. Called once per main-loop request. */
export type Scenario = (turn: ModelTurn) => ModelStep

export interface RecordedRequest {
  method: string
  path: string
  body: unknown
  /** The request's headers (lower-case names), e.g. to see which credential the CLI sent. */
  headers: Record<string, string | string[] | undefined>
}

/**
 * The API key the server accepts, as the vendor's API does: a request without it or with another one is refused
 * with the vendor's own status and message, before the scenario is asked. Without a key, any request is served.
 */
export interface ServerOptions {
  key?: string
}

export interface ModelServer {
  /** Base URL to give the CLI (ANTHROPIC_BASE_URL, OPENAI_BASE_URL, GOOGLE_GEMINI_BASE_URL …). */
  url: string
  /** Every request received, in order. */
  requests: RecordedRequest[]
  close(): Promise<void>
}
