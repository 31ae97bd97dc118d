/**
 * `converge`: the Converge pipeline against a local git repository (SPEC §10).
 */
import { parseArgs } from 'node:util'
import { demoCommand } from './commands/demo.js'
import { planCommand } from './commands/plan.js'
import { validateCommand } from './commands/validate.js'
import { UsageError } from './usage-error.js'
import { approveCommand, verifyCommand } from './commands/verify.js'
import { userInfo } from 'node:os'
import type { CliIo } from './io.js'
import { DEFAULT_STATE_BRANCH } from '../state/layout.js'

const USAGE = `Usage: converge <command> [options]

Commands:
  demo                              Run the pipeline on the bundled example, offline
  validate <plan.json>              Check a plan file (exit 1 with every error and finding)
  plan --issue-file <issue.md>      Plan an issue and commit it to the local state branch
  approve --number <n>              Approve the stored plan (bound to its content hash)
  verify --number <n>               Run the approved plan's verification commands on --repo

Options:
  --repo <dir>            Repository holding the state branch (default: .)
  --state-branch <name>   State branch (default: ${DEFAULT_STATE_BRANCH})
  --planner <mode>        auto | explicit | builtin (default: auto)
  --number <n>            Issue number (default: from the file's front matter or name)
  --max-parallel <n>      verify: tasks at once (default: 2)
  --timeout <minutes>     verify: limit of each command (default: 15)
  --json                  validate: print the report as JSON
  --keep                  demo: keep the temporary directory
  -h, --help              Show this help`

/** Runs one CLI invocation and returns its exit code; usage mistakes throw UsageError. */
export async function runCli(argv: string[], io: CliIo, packageRoot: string, signal?: AbortSignal): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      repo: { type: 'string', default: '.' },
      'state-branch': { type: 'string', default: DEFAULT_STATE_BRANCH },
      planner: { type: 'string', default: 'auto' },
      'issue-file': { type: 'string' },
      number: { type: 'string' },
      json: { type: 'boolean', default: false },
      'max-parallel': { type: 'string', default: '2' },
      timeout: { type: 'string', default: '15' },
      keep: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  })
  const [command, ...rest] = positionals
  if (values.help || !command) {
    io.out(USAGE)
    return command || values.help ? 0 : 2
  }
  const number = values.number === undefined ? undefined : Number(values.number)
  if (number !== undefined && !(Number.isInteger(number) && number > 0)) throw new UsageError('--number must be a positive integer')
  switch (command) {
    case 'demo':
      return demoCommand({ packageRoot, keep: values.keep }, io)
    case 'validate':
      return validateCommand({ positionals: rest, json: values.json }, io)
    case 'plan':
      return planCommand(
        { issueFile: values['issue-file'], repo: values.repo, planner: values.planner, stateBranch: values['state-branch'], ...(number !== undefined ? { number } : {}) },
        io,
      )
    case 'approve':
      return approveCommand({ repo: values.repo, stateBranch: values['state-branch'], by: userInfo().username, ...(number !== undefined ? { number } : {}) }, io)
    case 'verify':
      return verifyCommand(
        {
          repo: values.repo, stateBranch: values['state-branch'], ...(number !== undefined ? { number } : {}),
          maxParallel: positive(values['max-parallel'], '--max-parallel'), timeoutMinutes: positive(values.timeout, '--timeout'),
          ...(signal ? { signal } : {}),
        },
        io,
      )
    default:
      throw new UsageError(`Unknown command "${command}". Commands: demo, validate, plan, approve, verify`)
  }
}

function positive(value: string, name: string): number {
  const n = Number(value)
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`${name} must be a positive whole number`)
  return n
}
