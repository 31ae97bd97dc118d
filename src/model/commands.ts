/** The `/converge` command vocabulary (SPEC §5). */

export const COMMANDS = {
  plan: 'plan the issue (from a ```json block in the comment or issue, else the built-in planner)',
  approve: 'approve the current plan (bound to its content hash)',
  execute: 'plan if needed, then execute the approved plan',
  verify: "run every task's verification against the current code",
  status: 'show the plan and execution status',
  retry: 'run the named tasks again: retry T2 T3',
  pause: 'pause execution at the next task boundary',
  resume: 'continue a paused or stopped execution',
  stop: 'stop execution at the next task boundary',
  sync: 'read all open issues into the run state and queue',
  matrix: 'emit the ready tasks as a job matrix',
  'execute-task': 'execute one task (for a matrix job): execute-task T2',
  report: 'publish the comment and check run from the recorded results',
} as const

export type CommandName = keyof typeof COMMANDS

/** Commands that only read: everything else needs the actor's permission (SPEC §6). */
const READ_ONLY: ReadonlySet<CommandName> = new Set(['status'])

export function isCommandName(name: string): name is CommandName {
  return Object.hasOwn(COMMANDS, name)
}

export function changesState(command: CommandName): boolean {
  return !READ_ONLY.has(command)
}

export type ParsedCommandLine =
  | { kind: 'none' }
  | { kind: 'command'; command: CommandName; args: string[] }
  | { kind: 'unknown'; name: string }

/**
 * Reads `<prefix> <command> [args]` from the first line of a comment. Only the first line counts, so a
 * command quoted further down a discussion does nothing. Arguments are words, never evaluated.
 */
export function parseCommandLine(text: string, prefix: string): ParsedCommandLine {
  const firstLine = text.replace(/^\uFEFF/, '').split(/\r?\n/, 1)[0]!.trim()
  const words = firstLine.split(/\s+/)
  if (words[0] !== prefix) return { kind: 'none' }
  const name = (words[1] ?? '').toLowerCase()
  if (!isCommandName(name)) return { kind: 'unknown', name }
  return { kind: 'command', command: name, args: words.slice(2) }
}

/** The reply to an unknown command: what exists and how to call it. */
export function commandList(prefix: string): string {
  return Object.entries(COMMANDS).map(([name, what]) => `- \`${prefix} ${name}\`: ${what}`).join('\n')
}
