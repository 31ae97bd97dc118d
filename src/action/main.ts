/**
 * The GitHub Action entry point (`dist/index.js`).
 */
import * as core from '@actions/core'
import { readInputs } from './inputs.js'

async function run(): Promise<void> {
  const read = readInputs((name) => core.getInput(name))
  if (!read.ok) {
    core.setFailed(`Converge: invalid inputs\n${read.errors.map((e) => `- ${e}`).join('\n')}`)
    return
  }
  core.setSecret(read.inputs['github-token'])
  core.setFailed(
    'Converge: commands on GitHub are not available in this version yet; use the converge CLI (converge demo, converge plan).',
  )
}

run().catch((error: unknown) => core.setFailed(`Converge: ${(error as Error).stack ?? String(error)}`))
