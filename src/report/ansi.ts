/** Removes ANSI escape sequences (colours, cursor moves, OSC hyperlinks). */
export function stripAnsi(text: string): string {
  return text.replace(/\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b\[[0-9;?]*[ -/]*[@-~]|\u001b[@-Z\\-_]/g, '')
}
