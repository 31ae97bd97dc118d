/**
 * Before the first command Converge runs in the checkout (a planner, an executor, a verification command), the
 * credentials a checkout step persisted in the workspace's git configuration are removed (`persisted-credentials:
 * remove`, the default), and what was found is said in the log and in every report of the run.
 */
import * as core from '@actions/core'
import { CredentialRemovalError, describeScrub, scrubPersistedCredentials } from '../git/persisted-credentials.js'

export interface CheckoutProtection {
  /** Runs the scrub once per run; later calls wait for the first. Throws when a credential could not be removed. */
  beforeCommands(): Promise<void>
  /** What was found and done, for the reports (empty until `beforeCommands` ran, or when nothing was found). */
  readonly notes: readonly string[]
}

export interface ProtectionOptions {
  repoDir: string
  runnerTemp: string | undefined
  serverUrl: string
  mode: 'remove' | 'keep'
}

export function checkoutProtection(options: ProtectionOptions): CheckoutProtection {
  const notes: string[] = []
  let done: Promise<void> | undefined
  const run = async () => {
    const keep = options.mode === 'keep'
    const scrub = await scrubPersistedCredentials(options.repoDir, {
      ...(options.runnerTemp ? { runnerTemp: options.runnerTemp } : {}),
      serverUrl: options.serverUrl,
      dryRun: keep,
    })
    for (const found of scrub.removed) core.info(`Converge: ${keep ? 'found' : 'removed'} ${found.what} (${found.where})`)
    for (const line of describeScrub(scrub, keep)) {
      core.warning(`Converge: ${line}`)
      notes.push(line)
    }
  }
  return {
    beforeCommands: () =>
      (done ??= run().catch((error: unknown) => {
        throw error instanceof CredentialRemovalError
          ? new Error(`${error.message}. No command was run: it could have read the credential.`, { cause: error })
          : error
      })),
    notes,
  }
}
