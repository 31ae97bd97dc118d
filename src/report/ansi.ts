/**
 * Removes ANSI escape sequences (colours, cursor moves, OSC hyperlinks). A run of sequences is one match: coloured
 * test output holds hundreds of them, mostly back to back, and each match costs more than the characters it spans.
 */
export function stripAnsi(text: string): string {
  return text.replace(/(?:\u001b(?:\[[0-9;?]*[ -/]*[@-~]|\][^\u0007\u001b]*(?:\u0007|\u001b\\)|[@-Z\\-_]))+/g, '')
}
