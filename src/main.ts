import * as core from '@actions/core'
import { runAction } from './action/run.js'

/**
 * The action: what `dist/index.js` runs on a runner, and what `@github/local-action` calls to run it locally.
 * API failures already say which request failed and why (see describeFailure in src/github/client.ts).
 */
export async function run(): Promise<void> {
  try {
    await runAction(process.env)
  } catch (error) {
    core.setFailed(`Converge: ${error instanceof Error ? error.message : String(error)}`)
  }
}
