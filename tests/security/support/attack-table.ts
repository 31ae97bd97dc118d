/** One attack tried, by the finding it belongs to, and whether it held. */
export interface Attack {
  finding: string
  what: string
  held: boolean
}

/** Prints the table CI shows (as tests/security/attacks.test.ts prints its own): tried, held, broken. */
export function printAttackTable(title: string, attacks: readonly Attack[]): void {
  const width = Math.max(6, ...attacks.map((a) => a.what.length))
  const lines = attacks.map((a) => `| ${a.finding.padStart(2)} | ${a.what.padEnd(width)} | ${a.held ? 'held  ' : 'BROKEN'} |`)
  console.log([
    `${title}: ${attacks.length} attacks tried, ${attacks.filter((a) => a.held).length} held, ${attacks.filter((a) => !a.held).length} broken`,
    `| #  | ${'attack'.padEnd(width)} | result |`, `|----|-${'-'.repeat(width)}-|--------|`, ...lines,
  ].join('\n'))
}
