/**
 * Before the first attempt: is the program an executor or planner command starts there at all? A missing agent CLI
 * otherwise shows up late — after every attempt and its verification ran — as `code 127: claude: not found`. For a
 * preset the answer says how to install it; for a line of shell its first word is looked up the same way.
 */
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { agentCommand, type AgentPreset } from './presets.js'

/** The program a command starts: a preset's CLI (the first word of its executor template), else a plain first word. */
export function agentProgram(value: string): { program: string; preset?: AgentPreset } | undefined {
  const { command, preset } = agentCommand(value, 'executor')
  const first = /^\s*([A-Za-z0-9_./+-]+)(?=\s|$)/.exec(command)?.[1]
  // `none` runs nothing; `NAME=value cmd`, `(…)`, `$VAR` and the like are left to the shell.
  if (!first || value.trim() === 'none' || first.includes('=')) return undefined
  return preset ? { program: first, preset } : { program: first }
}

/**
 * Null when the program is there (`command -v` in `cwd`, the checkout, with the PATH the command will get), else what is missing and how to
 * install it: one message, before anything runs or is recorded.
 */
export async function agentPreflight(value: string, role: 'executor' | 'planner', env: Record<string, string | undefined>, cwd: string): Promise<string | null> {
  const found = agentProgram(value)
  if (!found) return null
  const { program, preset } = found
  const path = env.PATH ?? process.env.PATH ?? ''
  const present = await promisify(execFile)('/bin/sh', ['-c', 'command -v "$1"', 'sh', program], { env: { PATH: path }, cwd }).then(() => true, () => false)
  if (present) return null
  const option = role === 'executor' ? 'the executor' : 'the planner command'
  if (preset)
    return `${option} ${preset.name} runs \`${program}\`, which is not installed here (command -v ${program} finds nothing on PATH): ` +
      `install it with \`${preset.install}\` and give it ${preset.apiKey}, then run this again`
  return `${option} runs \`${program}\`, which is not on PATH here (command -v ${program} finds nothing): install it, or correct the command`
}
