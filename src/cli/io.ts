/** Where the CLI writes; tests pass their own to capture output. */
export interface CliIo {
  out(text: string): void
  err(text: string): void
}

export const processIo: CliIo = {
  out: (text) => process.stdout.write(`${text}\n`),
  err: (text) => process.stderr.write(`${text}\n`),
}
