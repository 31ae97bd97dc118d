#!/usr/bin/env node
/** Entry point of the `converge` binary (`dist/cli/index.js`). */
import { realpathSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { runCli } from './cli.js'
import { UsageError } from './usage-error.js'
import { processIo } from './io.js'

/** This file is `<root>/src/cli/main.ts` in development and `<root>/dist/cli/index.js` when bundled. */
function packageRootOf(script: string): string {
  return resolve(dirname(realpathSync(script)), '..', '..')
}

runCli(process.argv.slice(2), processIo, packageRootOf(process.argv[1]!)).then(
  (code) => { process.exitCode = code },
  (error: unknown) => {
    const usage = error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')
    processIo.err(`converge: ${(error as Error).message}${usage ? '\nRun converge --help for usage.' : ''}`)
    process.exitCode = 2
  },
)
