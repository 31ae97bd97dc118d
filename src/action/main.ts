/** The GitHub Action entry point (`dist/index.js`). */
import * as core from '@actions/core'
import { runAction } from './run.js'

// API failures already say which request failed and why (see describeFailure in src/github/client.ts).
runAction(process.env).catch((error: unknown) => core.setFailed(`Converge: ${(error as Error).message ?? String(error)}`))
