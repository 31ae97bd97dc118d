/**
 * Writes the generated sections of the documentation pages: the inputs and outputs tables from action.yml in
 * docs/inputs.md (between `<!-- action-inputs:start -->` and `<!-- action-inputs:end -->`), the agent presets table
 * from src/agents/presets.ts in docs/execution.md (`<!-- agent-presets:start -->` … `<!-- agent-presets:end -->`), and
 * the CLI's commands with `converge help execute` from the CLI's command table in docs/cli.md
 * (`<!-- cli-commands:start -->` … `<!-- cli-commands:end -->`). `--check` exits 1 when a page is stale (CI runs it).
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { parse } from 'yaml'
import { AGENT_PRESETS, type AgentPreset } from '../src/agents/presets.js'
import AGENT_CLIS from './agent-clis.json'
import { CLI_COMMANDS, findCommand } from '../src/cli/command-table.js'
import { commandHelp } from '../src/cli/help.js'

interface ActionYml {
  inputs: Record<string, { description: string; default?: string; required?: boolean }>
  outputs: Record<string, { description: string }>
}

const root = join(import.meta.dirname, '..')
const action = parse(readFileSync(join(root, 'action.yml'), 'utf8')) as ActionYml
const cell = (text: string) => text.replace(/\s+/g, ' ').trim().replace(/\|/g, '\\|')
const code = (text: string | undefined) => (text === undefined || text === '' ? '' : `\`${cell(text).replace(/`/g, "'")}\``)

const inputs = [
  '<!-- Generated from action.yml by scripts/write-action-docs.ts: edit action.yml, then run npm run docs. -->',
  '',
  '| input | default | what it does |',
  '| --- | --- | --- |',
  ...Object.entries(action.inputs).map(([name, input]) => `| \`${name}\` | ${code(input.default)} | ${cell(input.description)} |`),
  '',
  '| output | what it holds |',
  '| --- | --- |',
  ...Object.entries(action.outputs).map(([name, output]) => `| \`${name}\` | ${cell(output.description)} |`),
]

/** The CLI version the agent suite tests a preset with (scripts/agent-clis.json), by the npm package it installs. */
function tested(install: string): string {
  const pinned = Object.entries(AGENT_CLIS as Record<string, string>).find(([name]) => install.endsWith(` ${name}`))
  return pinned ? `${pinned[0].split('/')[1]} ${pinned[1]}` : 'not tested'
}

const TURN_LIMITS: Record<AgentPreset['turnLimit'], string> = {
  flag: 'the CLI stops at the limit',
  counted: 'counted from its output after each run',
  none: 'refused',
}

const presets = [
  '<!-- Generated from src/agents/presets.ts by scripts/write-action-docs.ts: edit the presets, then run npm run docs. -->',
  '',
  '| name | `executor-command` runs | `planner-command` runs (read-only) | install, key | tested with, `max-turns` |',
  '| --- | --- | --- | --- | --- |',
  ...Object.values(AGENT_PRESETS).map((p) => `| \`${p.name}\` | ${code(p.executor)} | ${code(p.planner)}<br>${cell(p.readOnly)} | ${code(p.install)}, \`${cell(p.apiKey)}\` | ${tested(p.install)}, ${TURN_LIMITS[p.turnLimit]} |`),
  '',
  'How to set each one up, what it does with a wrong key and how `max-turns` holds: [docs/agents.md](agents.md).',
]

const cliCommands = [
  '<!-- Generated from src/cli/command-table.ts by scripts/write-action-docs.ts: edit the table, then run npm run docs. -->',
  '',
  '| command | what it does |',
  '| --- | --- |',
  ...CLI_COMMANDS.map((c) => `| \`converge ${cell(c.synopsis)}\` | ${cell(c.summary)} |`),
  '',
  "Each command's options, their defaults and its `--json` document: `converge help <command>`. For example:",
  '',
  '```text',
  '$ converge help execute',
  commandHelp(findCommand('execute')!),
  '```',
]

/** Each generated section and the page it lives in. */
const SECTIONS = [
  { page: 'docs/inputs.md', name: 'action-inputs', lines: inputs },
  { page: 'docs/execution.md', name: 'agent-presets', lines: presets },
  { page: 'docs/cli.md', name: 'cli-commands', lines: cliCommands },
] as const

const stale: string[] = []
for (const { page, name, lines } of SECTIONS) {
  const path = join(root, page)
  const text = readFileSync(path, 'utf8')
  const start = `<!-- ${name}:start -->`
  const end = `<!-- ${name}:end -->`
  const from = text.indexOf(start)
  const to = text.indexOf(end)
  if (from === -1 || to === -1) {
    console.error(`${page} has no ${start} … ${end} section`)
    process.exit(1)
  }
  const next = `${text.slice(0, from)}${[start, ...lines, end].join('\n')}${text.slice(to + end.length)}`
  if (next === text) continue
  stale.push(page)
  if (!process.argv.includes('--check')) writeFileSync(path, next)
}
if (stale.length === 0) process.exit(0)
if (process.argv.includes('--check')) {
  console.error(`${stale.join(', ')}: the generated sections differ from action.yml, src/agents/presets.ts or src/cli/command-table.ts: run npm run docs`)
  process.exit(1)
}
console.log(`wrote the generated sections of ${stale.join(', ')} (inputs, outputs, agent presets, CLI commands)`)
