#!/usr/bin/env node
/** Entry point of the `converge` binary (`dist/cli/index.js`). */
import { realpathSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { isMainThread } from 'node:worker_threads'
import { runCli } from './cli.js'
import { InputError, UsageError } from './usage-error.js'
import { processIo } from './io.js'

/** This file is `<root>/src/cli/main.ts` in development and `<root>/dist/cli/index.js` when bundled. */
function packageRootOf(script: string): string {
  return resolve(dirname(realpathSync(script)), '..', '..')
}

// A worker thread running this bundle is the board's second thread (src/board/pages-worker.ts), not the CLI.
if (isMainThread) main()
else void import('../board/pages-worker.js')

function main(): void {
  // Commands run in process groups of their own, out of reach of the terminal's Ctrl-C: the first Ctrl-C
  // (or SIGTERM) ends them and lets the run record what it has; a second one leaves at once.
  const cancel = new AbortController()
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (cancel.signal.aborted) process.exit(130)
      processIo.err('converge: stopping the running commands…')
      cancel.abort()
    })
  }

  runCli(process.argv.slice(2), processIo, packageRootOf(process.argv[1]!), cancel.signal).then(
    (code) => { process.exitCode = code },
    (error: unknown) => {
      const usage = error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')
      processIo.err(`converge: ${(error as Error).message}${usage ? '\nRun converge --help for usage.' : ''}`)
      // 1: what was given cannot be used (its content); 2: how the CLI was called, or a failure of its own.
      process.exitCode = error instanceof InputError ? 1 : 2
    },
  )
}
