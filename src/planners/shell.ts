import type { CodeBlock } from './markdown.js'
import { taskRefs } from './phrases.js'

const SHELL_LANGS = new Set(['sh', 'bash', 'shell', 'zsh', 'console', 'terminal', 'shell-session', 'sh-session', 'shellsession'])
const TRANSCRIPT_LANGS = new Set(['console', 'terminal', 'shell-session', 'sh-session', 'shellsession'])

export function isShellBlock(block: CodeBlock): boolean {
  return SHELL_LANGS.has(block.lang)
}

export interface ShellCommand {
  command: string
  /** Tasks named by the comment above the command (`# T2: unit tests`); empty when it names none. */
  refs: string[]
}

/**
 * The commands of a shell block, one per line. Blank lines and `#` comments are skipped, a trailing
 * `\` joins the next line, and a `$ ` prompt is stripped. In a transcript (```` ```console ````)
 * only `$ ` lines are commands; the rest is output. A comment labels the commands below it, up to
 * the next comment: `# T2: unit tests` gives them to T2, a comment naming no task to no task in particular.
 */
export function shellCommands(block: CodeBlock): ShellCommand[] {
  const transcript = TRANSCRIPT_LANGS.has(block.lang)
  const commands: ShellCommand[] = []
  let refs: string[] = []
  let pending = ''
  for (const rawLine of block.text.split('\n')) {
    const line = rawLine.trim()
    if (!pending) {
      if (line.startsWith('#')) {
        refs = taskRefs(line)
        continue
      }
      if (transcript && !/^\$\s/.test(line)) continue
    }
    const text = pending ? line : line.replace(/^\$\s+/, '')
    if (text.endsWith('\\')) {
      pending += `${text.slice(0, -1).trimEnd()} `
      continue
    }
    const command = (pending + text).trim()
    pending = ''
    if (command) commands.push({ command, refs })
  }
  if (pending.trim()) commands.push({ command: pending.trim(), refs })
  return commands
}
