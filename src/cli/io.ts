/** Where the CLI writes; tests pass their own to capture output. */
export interface CliIo {
  out(text: string): void
  err(text: string): void
  /** Whether `out` is a terminal (colour then; plain text otherwise, and with NO_COLOR set). */
  colour?: boolean
}

export const processIo: CliIo = {
  out: (text) => process.stdout.write(`${text}\n`),
  err: (text) => process.stderr.write(`${text}\n`),
  colour: process.stdout.isTTY === true && !process.env.NO_COLOR,
}
