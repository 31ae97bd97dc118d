/**
 * A credential failure: the agent could not reach its model because its key is missing, wrong or revoked, or it is
 * not logged in. Running it again cannot help and verifying its (absent) work proves nothing, so the task ends at
 * the first such run, and the report gives the agent's own words and the variable to set.
 *
 * Recognised from what each CLI prints (its machine-readable error, else the tail of its output):
 * - Claude Code: "Invalid API key · Please run /login", "Not logged in", an API 401 `authentication_error`;
 * - Codex: "unexpected status 401 Unauthorized: …", "no Codex credentials were found", "Missing API key";
 * - Gemini CLI: "API key not valid", "invalid authentication credentials" (a 400 / 401 of the API), "When using
 *   Gemini API, you must specify the GEMINI_API_KEY environment variable";
 * - any API's "401 Unauthorized", "Incorrect API key", "invalid_api_key".
 */
import type { AgentReport } from '../model/index.js'
import type { AgentPreset } from './presets.js'

const CREDENTIAL_FAILURE = new RegExp(
  [
    String.raw`\b401\b`,
    String.raw`\bunauthori[sz]ed\b`,
    String.raw`\bauthentication_error\b`,
    String.raw`\binvalid[ _-]?(?:x-)?api[ _-]?key\b`,
    String.raw`\bincorrect api key\b`,
    String.raw`\bapi key not valid\b`,
    String.raw`\bAPI_KEY_INVALID\b`,
    String.raw`\binvalid authentication credentials\b`,
    String.raw`\bnot logged in\b`,
    String.raw`\bplease run /login\b`,
    String.raw`\bno \w+ credentials were found\b`,
    String.raw`\bmissing (?:an? )?api key\b`,
    String.raw`\bmust specify the \w+_API_KEY\b`,
  ].join('|'),
  'i',
)

export interface CredentialFailure {
  /** What the agent said, one line. */
  said: string
  /** What to set: the preset's key variable, or a general hint for the workflow's own command. */
  fix: string
}

/**
 * The credential failure an executor or planner run shows, or undefined. Only a run that failed is looked at (a
 * non-zero exit or an error the agent reported): a run that worked may well talk about keys.
 */
export function credentialFailure(
  run: { exitCode: number | null; agent: AgentReport | null; outputTail: string },
  preset: AgentPreset | undefined,
): CredentialFailure | undefined {
  if (run.exitCode === 0 && !run.agent?.error) return undefined
  const texts = [run.agent?.error, run.agent?.message, run.outputTail].filter((t): t is string => !!t)
  const line = texts.flatMap((text) => text.split('\n')).find((l) => CREDENTIAL_FAILURE.test(l))
  if (!line) return undefined
  // An API error quoted as JSON ("[API Error: {…}]", "API Error: 401 {…}"): its message instead of the JSON.
  const quoted = /"message"\s*:\s*"((?:[^"\\]|\\.)+)"/.exec(line)?.[1]
  const said = quoted ? line.replace(/\{.*\}/, quoted) : line
  return { said: oneLine(said), fix: preset ? `set ${preset.apiKey} (${preset.credentials})` : "check the agent's API key or login" }
}

/** "the agent's credentials were refused: <its words>; set CODEX_API_KEY (…)", for the comment and the CLI. */
export function credentialFailureText(failure: CredentialFailure): string {
  return `the agent's credentials were refused: ${failure.said}; ${failure.fix}`
}

function oneLine(text: string): string {
  const line = text.trim().replace(/\s+/g, ' ')
  return line.length > 240 ? `${line.slice(0, 239)}…` : line
}
