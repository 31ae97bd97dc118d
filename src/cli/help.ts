/** The CLI's help, made from the command table and the options. Pure: data in, text out. */
import type { CliCommand } from './command-table.js'
import { OPTIONS, type OptionName, type OptionSpec } from './options.js'

const ERRORS = 'an error is { "error": { "message", "kind": "usage" | "input" } } (exit 2 | 1)'

/** `converge help`: every command with its summary, and the options every command takes. */
export function generalHelp(commands: readonly CliCommand[]): string {
  const width = Math.max(...commands.map((c) => c.name.length)) + 2
  return [
    'Usage: converge <command> [options]',
    '',
    'Converge on a local git repository: plan issues, approve, verify and execute their plans, with the state on a',
    'local branch (converge/state) — the commands of the GitHub Action, with the same state files.',
    '',
    'Commands:',
    ...commands.map((c) => `  ${c.name.padEnd(width)}${c.summary}`),
    '',
    'Every command takes:',
    ...optionLines([['json', `${OPTIONS.json.help}; ${ERRORS}`], ['help', "show the command's help"], ['version', OPTIONS.version.help]]),
    '',
    "converge help <command> (or converge <command> --help): the command's options, their defaults, and an example.",
  ].join('\n')
}

/** `converge help <command>`: its synopsis, summary, options with their defaults, --json document, and an example. */
export function commandHelp(command: CliCommand): string {
  const own = Object.entries(command.options).map(([name, text]): [OptionName, string] => [name as OptionName, text === true ? OPTIONS[name as OptionName].help : text!])
  return [
    `Usage: converge ${command.synopsis} [options]`,
    '',
    `${command.summary[0]!.toUpperCase()}${command.summary.slice(1)}.`,
    '',
    'Options:',
    ...optionLines([...own, ['json', `print one JSON document on stdout: ${command.json}`], ['help', 'show this help']]),
    '',
    'Example:',
    `  ${command.example}`,
  ].join('\n')
}

/** `converge help --json`: the same, as data (for editors and wrappers): each command, its options and defaults. */
export function helpDocument(commands: readonly CliCommand[]) {
  return {
    commands: commands.map((command) => ({
      name: command.name,
      synopsis: `converge ${command.synopsis}`,
      summary: command.summary,
      options: Object.entries(command.options).map(([name, text]) => {
        const spec: OptionSpec = OPTIONS[name as OptionName]
        return { name: `--${name}`, ...(spec.value ? { value: spec.value } : {}), ...(spec.default !== undefined ? { default: spec.default } : {}), help: text === true ? spec.help : text! }
      }),
      json: command.json,
      example: command.example,
    })),
  }
}

function optionLines(options: ReadonlyArray<readonly [OptionName, string]>): string[] {
  const flags = options.map(([name]) => {
    const spec: OptionSpec = OPTIONS[name]
    return `${spec.short ? `-${spec.short}, ` : ''}--${name}${spec.value ? ` ${spec.value}` : ''}`
  })
  const width = Math.max(...flags.map((f) => f.length)) + 2
  return options.map(([name, text], i) => {
    const spec: OptionSpec = OPTIONS[name]
    return `  ${flags[i]!.padEnd(width)}${text}${spec.default !== undefined ? ` (default: ${spec.default})` : ''}`
  })
}
