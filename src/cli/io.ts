/** Where the CLI writes; tests pass their own to capture output. */
export interface CliIo {
  out(text: string): void
  err(text: string): void
  /** Whether `out` is a terminal (colour then; plain text otherwise, and with NO_COLOR set). */
  colour?: boolean
  /**
   * `out` is a terminal that takes cursor movements: the status lines of running tasks are drawn there, in place.
   * `write` then writes to it as it is (no newline added) and `columns` is its width.
   */
  tty?: boolean
  write?(text: string): void
  columns?: number
}

export const processIo: CliIo = {
  out: (text) => process.stdout.write(`${text}\n`),
  err: (text) => process.stderr.write(`${text}\n`),
  colour: process.stdout.isTTY === true && !process.env.NO_COLOR,
  tty: process.stdout.isTTY === true && process.env.TERM !== 'dumb',
  write: (text) => process.stdout.write(text),
  get columns() {
    return process.stdout.columns
  },
}
