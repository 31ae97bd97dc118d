/**
 * A check that could not start because a program it runs is not installed where it ran (`sh: 1: mocha: not found`,
 * exit 127; `npx` refusing to install a package): not a verdict on the work, but on the checkout the check ran in.
 */

export interface MissingProgram {
  /** The check's command line. */
  command: string
  /** The program that was not found (`mocha`). */
  program: string
}

const NOT_FOUND = [
  // dash: `sh: 1: mocha: not found`; bash: `bash: mocha: command not found`; zsh: `zsh: command not found: mocha`
  /(?:^|\n)[^\n:]*?(?:sh|bash)(?:: line \d+|: \d+)?: ([^\s:]+): (?:command )?not found/,
  /(?:^|\n)zsh: command not found: ([^\s:]+)/,
  // npx without a local install, and no terminal to ask: `npx canceled due to missing packages and no YES option: ["mocha@12.0.3"]`
  /npx canceled due to missing packages[^[\n]*\["([^"@\n]+|@[^"@\n]+)(?:@[^"\n]*)?"/,
]

/** The program a failed check's output says was not found, when it says so (or exit code 127 names none). */
export function missingProgram(run: { command: string; exit_code?: number | null | undefined; output_tail?: string | undefined }): MissingProgram | undefined {
  if (run.exit_code === 0) return undefined
  const output = run.output_tail ?? ''
  for (const pattern of NOT_FOUND) {
    const match = pattern.exec(output)
    if (match) return { command: run.command, program: match[1]! }
  }
  if (run.exit_code === 127) return { command: run.command, program: run.command.trim().split(/\s+/)[0] ?? run.command }
  return undefined
}
