/**
 * `converge`: the Converge pipeline against a local git repository (SPEC §10).
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { didYouMean } from './did-you-mean.js'
import { demoCommand } from './commands/demo.js'
import { planCommand } from './commands/plan.js'
import { validateCommand } from './commands/validate.js'
import { UsageError } from './usage-error.js'
import { signalCommand, statusCommand } from './commands/control.js'
import { approveCommand, executeCommand, verifyCommand } from './commands/issue.js'
import { userInfo } from 'node:os'
import type { CliIo } from './io.js'
import { DEFAULT_STATE_BRANCH } from '../state/layout.js'

const USAGE = `Usage: converge <command> [options]

Commands:
  demo                              Run the pipeline on the bundled example, offline
  validate <plan.json>              Check a plan file (exit 1 with every error and finding)
  plan --issue-file <issue.md>      Plan an issue and commit it to the local state branch
                                    (--planner command --planner-command '<cmd>': an agent CLI plans)
  approve --number <n>              Approve the stored plan (bound to its content hash)
  verify --number <n>               Run the approved plan's verification commands on --repo
  execute --number <n> --executor <command>
                                    Carry out the approved plan in --repo: the executor does each
                                    task, its commands verify it, converged tasks are committed to
                                    converge/issue-<n> (use --executor none to verify only)
  retry --number <n> --executor <command>
                                    Run the failed tasks again (or those --retry names)
  status [--number <n>]             The issue, its plan and each task; without --number, every issue
  pause | resume | stop --number <n>
                                    Recorded on the state branch: a running execute pauses or stops at
                                    its next action boundary; resume goes on from there

Options:
  --repo <dir>            Repository holding the state branch (default: .)
  --state-branch <name>   State branch (default: ${DEFAULT_STATE_BRANCH})
  --planner <mode>        auto | explicit | builtin | command (default: auto)
  --planner-command <cmd> plan --planner command: the agent CLI, a line of shell that reads
                          $CONVERGE_PLAN_PROMPT_FILE and writes the solution JSON to $CONVERGE_PLAN_FILE
  --number <n>            Issue number (default: from the file's front matter or name)
  --max-parallel <n>      verify, execute: tasks at once (default: 2)
  --timeout <minutes>     verify, execute, plan: limit of each command (default: 15)
  --max-iterations <n>    execute: develop/debug attempts per task; plan: planner command attempts (default: 3)
  --on-failure <policy>   execute: retry | skip | abort (default: retry)
  --max-retries <n>       execute: reruns of a failed task with --on-failure retry (default: 1)
  --max-errors <n>        execute: stop after this many failed tasks (default: 3)
  --retry <ids|failed>    execute: run these recorded tasks again (T1,T3 or failed)
  --max-cost-usd <usd>    execute: stop starting tasks once the agent's reported cost reaches this
  --max-turns <n>         execute: turns of each agent run (--executor claude-code passes --max-turns)
  --allow-dirty           execute: leave uncommitted changes in --repo out of every task commit (else refused)
  --json                  validate: print the report as JSON
  --all                   validate: every solution of a .jsonl file (one solution per line)
  --keep                  demo: keep the temporary directory
  --version               Print Converge's version
  -h, --help              Show this help`

/** Runs one CLI invocation and returns its exit code; usage mistakes throw UsageError. */
const COMMANDS = ['demo', 'validate', 'plan', 'approve', 'verify', 'execute', 'retry', 'status', 'pause', 'resume', 'stop'] as const

const OPTIONS = {
  repo: { type: 'string', default: '.' },
  'state-branch': { type: 'string', default: DEFAULT_STATE_BRANCH },
  planner: { type: 'string', default: 'auto' },
  'planner-command': { type: 'string' },
  'issue-file': { type: 'string' },
  number: { type: 'string' },
  json: { type: 'boolean', default: false },
  'max-parallel': { type: 'string', default: '2' },
  timeout: { type: 'string', default: '15' },
  executor: { type: 'string' },
  'max-iterations': { type: 'string', default: '3' },
  'on-failure': { type: 'string', default: 'retry' },
  'max-retries': { type: 'string', default: '1' },
  'max-errors': { type: 'string', default: '3' },
  retry: { type: 'string' },
  'max-cost-usd': { type: 'string' },
  'max-turns': { type: 'string' },
  'allow-dirty': { type: 'boolean', default: false },
  keep: { type: 'boolean', default: false },
  all: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
  version: { type: 'boolean', default: false },
} as const

/** The command line, read strictly: an unknown option is a usage error that names the closest known one. */
function parseCommandLine(argv: string[]) {
  try {
    return parseArgs({ args: argv, allowPositionals: true, options: OPTIONS })
  } catch (error) {
    const unknown = /^Unknown option '(-{1,2}[^']+)'/.exec((error as Error).message)?.[1]
    if (!unknown) throw new UsageError((error as Error).message)
    const close = didYouMean(unknown.replace(/^-+/, ''), Object.keys(OPTIONS))
    throw new UsageError(`unknown option ${unknown}${close ? ` (did you mean --${close}?)` : ''}`)
  }
}

export async function runCli(argv: string[], io: CliIo, packageRoot: string, signal?: AbortSignal): Promise<number> {
  const { values, positionals } = parseCommandLine(argv)
  const [command, ...rest] = positionals
  if (values.version) {
    io.out(JSON.parse(await readFile(join(packageRoot, 'package.json'), 'utf8')).version)
    return 0
  }
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
      return validateCommand({ positionals: rest, json: values.json, all: values.all, ...(number !== undefined ? { number } : {}) }, io)
    case 'plan':
      return planCommand(
        {
          issueFile: values['issue-file'], repo: values.repo, planner: values.planner, stateBranch: values['state-branch'], ...(number !== undefined ? { number } : {}),
          ...(values['planner-command'] !== undefined ? { plannerCommand: values['planner-command'] } : {}),
          maxIterations: positive(values['max-iterations'], '--max-iterations'), timeoutMinutes: positive(values.timeout, '--timeout'),
          ...(signal ? { signal } : {}),
        },
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
    case 'status':
      return statusCommand({ repo: values.repo, stateBranch: values['state-branch'], ...(number !== undefined ? { number } : {}) }, io)
    case 'pause':
    case 'resume':
    case 'stop':
      return signalCommand(command, { repo: values.repo, stateBranch: values['state-branch'], ...(number !== undefined ? { number } : {}) }, io)
    case 'retry':
    case 'execute': {
      if (values.executor === undefined) throw new UsageError(`${command} needs --executor '<command>' (or --executor none to verify only)`)
      const onFailure = values['on-failure']
      if (onFailure !== 'retry' && onFailure !== 'skip' && onFailure !== 'abort') throw new UsageError('--on-failure must be retry, skip or abort')
      // `retry` is `execute --retry failed` unless --retry names the tasks.
      const retryValue = values.retry ?? (command === 'retry' ? 'failed' : undefined)
      const retry = retryValue === undefined ? undefined : retryValue === 'failed' ? ('failed' as const) : retryValue.split(',').map((id) => id.trim()).filter(Boolean)
      return executeCommand(
        {
          repo: values.repo, stateBranch: values['state-branch'], ...(number !== undefined ? { number } : {}),
          executor: values.executor, onFailure,
          maxParallel: positive(values['max-parallel'], '--max-parallel'), timeoutMinutes: positive(values.timeout, '--timeout'),
          maxIterations: positive(values['max-iterations'], '--max-iterations'), maxRetries: whole(values['max-retries'], '--max-retries'),
          maxErrors: positive(values['max-errors'], '--max-errors'),
          ...(values['max-cost-usd'] !== undefined ? { maxCostUsd: dollars(values['max-cost-usd'], '--max-cost-usd') } : {}),
          ...(values['max-turns'] !== undefined ? { maxTurns: positive(values['max-turns'], '--max-turns') } : {}),
          allowDirty: values['allow-dirty'],
          ...(retry ? { retry } : {}),
          ...(signal ? { signal } : {}),
        },
        io,
      )
    }
    default: {
      const close = didYouMean(command, COMMANDS)
      throw new UsageError(`Unknown command "${command}"${close ? ` (did you mean ${close}?)` : ''}. Commands: ${COMMANDS.join(', ')}`)
    }
  }
}

function dollars(value: string, name: string): number {
  const n = Number(value)
  if (!/^\d+(\.\d+)?$/.test(value.trim()) || !(n > 0)) throw new UsageError(`${name} must be an amount of US dollars more than 0, like 5 or 0.25`)
  return n
}

function whole(value: string, name: string): number {
  const n = Number(value)
  if (!Number.isInteger(n) || n < 0) throw new UsageError(`${name} must be a whole number`)
  return n
}

function positive(value: string, name: string): number {
  const n = Number(value)
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`${name} must be a positive whole number`)
  return n
}
