/** The GitHub Action entry point (`dist/index.js`). */
import * as core from '@actions/core'
import { runAction } from './run.js'

runAction(process.env).catch((error: unknown) => core.setFailed(`Converge: ${describeError(error)}`))

/** An API error says which request failed and what GitHub answered; anything else, its message. */
function describeError(error: unknown): string {
  const e = error as { status?: number; message?: string; request?: { method?: string; url?: string } }
  if (e.status && e.request) return `GitHub answered ${e.status} to ${e.request.method} ${e.request.url}: ${e.message}`
  return e.message ?? String(error)
}
