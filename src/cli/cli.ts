/**
 * `converge`: the Converge pipeline against a local git repository (SPEC §10). The commands are those of the
 * command table (./command-table.ts); this reads the command line strictly against it and runs the one named.
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { CLI_COMMANDS, findCommand, type CliCommand } from './command-table.js'
import { didYouMean } from './did-you-mean.js'
import { commandHelp, generalHelp, helpDocument } from './help.js'
import type { CliIo } from './io.js'
import { COMMON_OPTIONS, readCommandLine, Values, type OptionName } from './options.js'
import { errorDocument, printDocument, type Output } from './output.js'
import { InputError, UsageError } from './usage-error.js'

/**
 * Runs one CLI invocation and returns its exit code; usage mistakes throw UsageError, unusable input InputError.
 * With --json they are a JSON document on stdout instead, and the exit code is returned (2 and 1).
 */
export async function runCli(argv: string[], io: CliIo, packageRoot: string, signal?: AbortSignal): Promise<number> {
  // Looked for before the command line is read, so that a mistake in the command line is a JSON document too.
  const json = argv.includes('--json')
  try {
    return await run(argv, { io, json }, packageRoot, signal)
  } catch (error) {
    if (!json) throw error
    // Exit 1: what was given cannot be used (its content); 2: how the CLI was called, or a failure of its own.
    const input = error instanceof InputError
    printDocument(io, errorDocument((error as Error).message, input ? 'input' : 'usage'))
    return input ? 1 : 2
  }
}

async function run(argv: string[], output: Output, packageRoot: string, signal: AbortSignal | undefined): Promise<number> {
  const { io } = output
  const line = readCommandLine(argv)
  const [name, ...rest] = line.positionals
  if (line.values.version) {
    const { version } = JSON.parse(await readFile(join(packageRoot, 'package.json'), 'utf8')) as { version: string }
    if (output.json) printDocument(io, { version })
    else io.out(version)
    return 0
  }
  if (name === 'help' || (name === undefined && line.values.help)) {
    if (rest.length > 1) throw new UsageError(`help takes one command, got ${rest.length} (${rest.join(', ')}): converge help <command>`)
    const named = rest[0] === undefined ? undefined : commandNamed(rest[0])
    if (output.json) printDocument(io, helpDocument(named ? [named] : CLI_COMMANDS))
    else io.out(named ? commandHelp(named) : generalHelp(CLI_COMMANDS))
    return 0
  }
  if (name === undefined) {
    if (output.json) throw new UsageError('no command given: converge <command> (converge help lists them)')
    io.out(generalHelp(CLI_COMMANDS))
    return 2
  }
  const command = commandNamed(name)
  if (line.values.help) {
    if (output.json) printDocument(io, helpDocument([command]))
    else io.out(commandHelp(command))
    return 0
  }
  for (const option of line.given) {
    if (!takes(command, option)) throw new UsageError(`${command.name} does not take --${option}: converge help ${command.name} lists its options`)
  }
  const max = command.maxArguments ?? 0
  if (rest.length > max) {
    const got = rest.map((a) => `"${a}"`).join(', ')
    throw new UsageError(`${command.name} takes ${max === 0 ? 'no argument' : max === 1 ? 'one argument' : `${max} arguments`}, got ${got}: converge ${command.synopsis}`)
  }
  return command.run({ values: new Values(line.values), positionals: rest, output, packageRoot, ...(signal ? { signal } : {}) })
}

function takes(command: CliCommand, option: OptionName): boolean {
  return option === 'version' || COMMON_OPTIONS.includes(option) || Object.hasOwn(command.options, option)
}

/** The command of that name, or a usage error that names the closest one. */
function commandNamed(name: string): CliCommand {
  const command = findCommand(name)
  if (command) return command
  const names = CLI_COMMANDS.map((c) => c.name)
  const close = didYouMean(name, [...names, 'help'])
  throw new UsageError(`Unknown command "${name}"${close ? ` (did you mean ${close}?)` : ''}. Commands: ${names.join(', ')}`)
}
