/**
 * The CLI's commands (SPEC §10): every command of the action (src/model/commands.ts) against a local repository,
 * plus the CLI's own (`demo`, `validate`). One entry per command — its synopsis, summary, the options it takes, an
 * example, the shape of its `--json` document and its handler — from which the help, the README's command list and
 * the strict reading of each command line are made.
 */
import { userInfo } from 'node:os'
import { maxTurnsRefusal } from '../agents/presets.js'
import { COMMANDS } from '../model/commands.js'
import { workBranchName } from '../model/state-layout.js'
import { boardCommand } from './commands/board.js'
import { approveCommand, executeCommand } from './commands/issue.js'
import { verifyCommand } from './commands/verify.js'
import { signalCommand, statusCommand } from './commands/control.js'
import { demoCommand } from './commands/demo.js'
import { planCommand } from './commands/plan.js'
import { showCommand } from './commands/show.js'
import { executeTaskCommand, matrixCommand, reportCommand } from './commands/scale-out.js'
import { syncCommand } from './commands/sync.js'
import { validateCommand } from './commands/validate.js'
import type { OptionName, Values } from './options.js'
import type { Output } from './output.js'
import { UsageError } from './usage-error.js'

export interface CommandContext {
  values: Values
  /** The arguments after the command's name. */
  positionals: string[]
  output: Output
  packageRoot: string
  signal?: AbortSignal
}

export interface CliCommand {
  name: string
  /** The command line after `converge `, its required parts. */
  synopsis: string
  summary: string
  /** The options it takes besides --json and --help, in the order help lists them; a text says what the option does for this command. */
  options: Partial<Record<OptionName, string | true>>
  /** Positional arguments it takes at most (none unless said). */
  maxArguments?: number
  example: string
  /** The `--json` document's shape. */
  json: string
  run(context: CommandContext): Promise<number>
}

const STATE = { repo: true, 'state-branch': true } as const
const ISSUE = 'the issue number (required)'
const TASKS = '{ id, title, status, attempts, commit, error, evidence: { kind, before, after } | null, proof, executor_exit_codes, later_retry: { at, outcome, executor_exit_codes } | null }'

/** The options of a run of tasks (besides --executor), shared by execute, retry and execute-task. */
const EXECUTION = {
  'max-iterations': true,
  'on-failure': true,
  'max-retries': true,
  timeout: true,
  'max-turns': true,
  'allow-dirty': true,
  evidence: true,
} as const

const RUN_JSON = `{ issue, mode, status, issue_status, solution_id, plan_hash, ran, tasks: [${TASKS}], error, branch }`

function executeArgs({ values, positionals, signal }: CommandContext, name: 'execute' | 'retry' | 'execute-task') {
  const executor = values.string('executor')
  if (executor === undefined) throw new UsageError(`${name} needs --executor '<command>' (or --executor none to verify only)`)
  // `retry` is `execute --retry failed` unless --retry or its arguments name the tasks.
  if (positionals.length && values.string('retry') !== undefined) throw new UsageError('retry takes the tasks as arguments or as --retry, not both: converge retry T2 T3 --number <n>')
  const named = name === 'retry' && positionals.length ? positionals.join(',') : values.string('retry')
  const retryValue = named ?? (name === 'retry' ? 'failed' : undefined)
  const retry = retryValue === undefined ? undefined : retryValue === 'failed' ? ('failed' as const) : retryValue.split(',').map((id) => id.trim()).filter(Boolean)
  const maxCost = values.string('max-cost-usd')
  const maxTurns = values.string('max-turns')
  const turnsRefused = maxTurns !== undefined ? maxTurnsRefusal(executor) : undefined
  if (turnsRefused) throw new UsageError(turnsRefused)
  return {
    repo: values.string('repo')!, stateBranch: values.string('state-branch')!, ...numberOf(values),
    executor, onFailure: values.onFailure(),
    maxParallel: values.positive('max-parallel'), timeoutMinutes: values.positive('timeout'),
    maxIterations: values.positive('max-iterations'), maxRetries: values.whole('max-retries'), maxErrors: values.positive('max-errors'),
    ...(maxCost !== undefined ? { maxCostUsd: values.dollars('max-cost-usd') } : {}),
    ...(maxTurns !== undefined ? { maxTurns: values.positive('max-turns') } : {}),
    allowDirty: values.flag('allow-dirty'),
    evidence: evidenceOption(values.string('evidence')),
    ...(retry ? { retry } : {}),
    ...(signal ? { signal } : {}),
  }
}

function evidenceOption(value: string | undefined): 'on' | 'off' {
  const setting = (value ?? 'on').trim().toLowerCase()
  if (setting !== 'on' && setting !== 'off') throw new UsageError(`--evidence takes on or off, not "${value}"`)
  return setting
}

function threadsOption(value: string | undefined): 1 | 2 | undefined {
  if (value === undefined) return undefined
  if (value.trim() !== '1' && value.trim() !== '2') throw new UsageError(`--threads takes 1 or 2, not "${value}"`)
  return value.trim() === '1' ? 1 : 2
}

function numberOf(values: Values): { number?: number } {
  const n = values.number()
  return n === undefined ? {} : { number: n }
}

function issueArgs(values: Values) {
  return { repo: values.string('repo')!, stateBranch: values.string('state-branch')!, ...numberOf(values) }
}

export const CLI_COMMANDS: readonly CliCommand[] = [
  {
    name: 'demo',
    synopsis: 'demo',
    summary: 'run the whole pipeline on the bundled example, offline, in a temporary repository',
    options: { keep: true },
    example: 'converge demo --keep',
    json: `{ issue, solution_id, gate, verification: [${TASKS}], execution: [${TASKS}], converged, main_untouched, working_tree_clean, state_files, duration_ms, kept }`,
    run: ({ values, output, packageRoot }) => demoCommand({ packageRoot, keep: values.flag('keep') }, output),
  },
  {
    name: 'validate',
    synopsis: 'validate <plan.json>',
    summary: 'check a plan file: exit 0, or 1 with every error and finding',
    options: { all: true, number: 'the issue the plan is for (default: from the file name, else the plan)' },
    maxArguments: Number.POSITIVE_INFINITY,
    example: 'converge validate plan.json',
    json: '{ errors: [{ code, path, message, hint }], warnings, dag, quality, gate }',
    run: ({ values, positionals, output }) =>
      validateCommand({ positionals, json: output.json, all: values.flag('all'), ...numberOf(values) }, output.io),
  },
  {
    name: 'plan',
    synopsis: 'plan --issue-file <issue.md> [--plan-file <plan>]',
    summary: 'plan an issue file and commit the issue and its plan to the local state branch',
    options: {
      'issue-file': true, 'plan-file': true, ...STATE, number: 'the issue number (default: number: in front matter, else a file name that states it: 42.md, "#42 title.md", GH-42.md)',
      replace: true,
      planner: true, 'planner-command': true,
      'max-iterations': '--planner command: attempts of the planner command', timeout: '--planner command: time limit of each attempt',
    },
    example: 'converge plan --issue-file issues/42.md',
    json: '{ issue, solution_id, plan_hash, status, gate, score, errors, findings, warnings, state: { branch, commit, paths }, planner_files }',
    run: ({ values, output, signal }) => {
      const plannerCommand = values.string('planner-command')
      const issueFile = values.string('issue-file')
      const planFile = values.string('plan-file')
      return planCommand({
        ...issueArgs(values), ...(issueFile !== undefined ? { issueFile } : {}), ...(planFile !== undefined ? { planFile } : {}), planner: values.string('planner')!,
        replace: values.flag('replace'),
        ...(plannerCommand !== undefined ? { plannerCommand } : {}),
        maxIterations: values.positive('max-iterations'), timeoutMinutes: values.positive('timeout'), ...(signal ? { signal } : {}),
      }, output)
    },
  },
  {
    name: 'show',
    synopsis: 'show --number <n>',
    summary: 'show the stored plan as you approve it: each task with its files, dependencies, criteria and commands, the findings, the hash approve binds',
    options: { number: ISSUE, ...STATE },
    example: 'converge show --number 42',
    json: '{ issue, title, status, plan_hash, approved, approved_by, gate, score, findings, plan }',
    run: ({ values, output }) => showCommand(issueArgs(values), output),
  },
  {
    name: 'approve',
    synopsis: 'approve --number <n>',
    summary: COMMANDS.approve,
    options: { number: ISSUE, ...STATE },
    example: 'converge approve --number 42',
    json: '{ issue, solution_id, plan_hash, approved_by, already_approved, accepted }',
    run: ({ values, output }) => approveCommand({ ...issueArgs(values), by: userInfo().username }, output),
  },
  {
    name: 'verify',
    synopsis: 'verify --number <n>',
    summary: `${COMMANDS.verify} (the work branch, checked out in the working tree of --repo when it is clean, else in a checkout of its own that --setup prepares)`,
    options: { number: ISSUE, ...STATE, setup: true, 'max-parallel': true, timeout: true },
    example: "converge verify --number 42 --setup 'npm ci'",
    json: RUN_JSON,
    run: ({ values, output, signal }) => {
      const setup = values.string('setup')
      if (setup !== undefined && !setup.trim()) throw new UsageError("--setup needs a command: --setup 'npm ci'")
      return verifyCommand({
        ...issueArgs(values), maxParallel: values.positive('max-parallel'), timeoutMinutes: values.positive('timeout'),
        ...(setup !== undefined ? { setup: setup.trim() } : {}), ...(signal ? { signal } : {}),
      }, output)
    },
  },
  {
    name: 'execute',
    synopsis: 'execute --number <n> --executor <command>',
    summary: `execute the approved plan in --repo: the executor does each task, its commands verify it, each converged task is committed to ${workBranchName('<n>')}`,
    options: { number: ISSUE, ...STATE, executor: true, 'max-parallel': true, ...EXECUTION, 'max-errors': true, retry: true, 'max-cost-usd': true },
    example: 'converge execute --number 42 --executor claude-code',
    json: RUN_JSON,
    run: (context) => executeCommand(executeArgs(context, 'execute'), context.output),
  },
  {
    name: 'retry',
    synopsis: 'retry [<task>…] --number <n> --executor <command>',
    summary: `${COMMANDS.retry} (without task ids: every failed task)`,
    options: { number: ISSUE, ...STATE, executor: true, 'max-parallel': true, ...EXECUTION, 'max-errors': true, 'max-cost-usd': true },
    maxArguments: Number.POSITIVE_INFINITY,
    example: 'converge retry T2 --number 42 --executor claude-code',
    json: RUN_JSON,
    run: (context) => executeCommand(executeArgs(context, 'retry'), context.output),
  },
  {
    name: 'status',
    synopsis: 'status [--number <n>]',
    summary: `${COMMANDS.status}; without --number, the queue and every issue`,
    options: { number: 'the issue (default: the queue and every issue)', ...STATE },
    example: 'converge status --number 42',
    json: `{ issue: { number, title, status, error }, plan: { solution_id, plan_hash, approved, approved_by }, execution: { mode, status, started_at, executed_at }, tasks: [${TASKS}] }; without --number: { queue: [queue item], queue_built_at, issues: [issue summary] }`,
    run: ({ values, output }) => statusCommand(issueArgs(values), output),
  },
  ...(['pause', 'resume', 'stop'] as const).map((signal): CliCommand => ({
    name: signal,
    synopsis: `${signal} --number <n>`,
    summary: `${COMMANDS[signal]}${signal === 'resume' ? '' : ' (a running execute, in another terminal, too)'}`,
    options: { number: ISSUE, ...STATE },
    example: `converge ${signal} --number 42`,
    json: '{ issue, signal, status, changed }',
    run: ({ values, output }) => signalCommand(signal, issueArgs(values), output),
  })),
  {
    name: 'sync',
    synopsis: 'sync --issues <folder> | --github <owner/repo>',
    summary: 'read the open issues (a folder of issue files, or GitHub) into the run state, and rebuild the queue',
    options: { issues: true, github: true, label: true, ...STATE },
    example: 'converge sync --issues issues/',
    json: '{ source: { issues, files } | { github, label }, unchanged, added, updated, removed, total (issues tracked), commit, queue: { items, groups, queued, left, skipped, order: [queue item] } }',
    run: ({ values, output }) => {
      const [issues, github, label] = [values.string('issues'), values.string('github'), values.string('label')]
      return syncCommand({
        ...issueArgs(values), ...(issues !== undefined ? { issues } : {}), ...(github !== undefined ? { github } : {}), ...(label !== undefined ? { label } : {}),
        env: process.env,
      }, output)
    },
  },
  {
    name: 'matrix',
    synopsis: 'matrix [--number <n>]',
    summary: `${COMMANDS.matrix} (the action's matrix output) on stdout, and what waits and why on stderr`,
    options: { number: 'the issue (default: every planned, queued or executing issue)', ...STATE, 'on-failure': true, 'max-errors': true },
    example: 'converge matrix --number 42',
    json: '{ matrix: { include: [{ issue, task }] }, leftover, issues: [{ issue, title, refused, ready, deferred, waiting, blocked, completed, failed, held, halted }] }',
    run: ({ values, output }) => matrixCommand({ ...issueArgs(values), onFailure: values.onFailure(), maxErrors: values.positive('max-errors') }, output),
  },
  {
    name: 'execute-task',
    synopsis: 'execute-task <task> --number <n> --executor <command>',
    summary: `${COMMANDS['execute-task']}, recorded as a matrix job records it`,
    options: { number: ISSUE, ...STATE, executor: true, ...EXECUTION },
    maxArguments: 1,
    example: 'converge execute-task T2 --number 42 --executor claude-code',
    json: `{ issue, task, ran, interrupted, status, tasks: [${TASKS}], error, branch }`,
    run: (context) => {
      const task = context.positionals[0]
      return executeTaskCommand({ ...executeArgs(context, 'execute-task'), ...(task !== undefined ? { task } : {}) }, context.output)
    },
  },
  {
    name: 'report',
    synopsis: 'report [--number <n>]',
    summary: "the issue's status from the recorded task results (after execute-task), as the action's report job records it",
    options: { number: 'the issue (default: every issue whose matrix execution is open)', ...STATE, markdown: true, 'on-failure': true, 'max-errors': true },
    example: 'converge report --number 42 --markdown',
    json: `{ issue, status, headline, changed, tasks: [${TASKS}], error, markdown (with --markdown) }; without --number: { reports: [those] }`,
    run: ({ values, output }) =>
      reportCommand({ ...issueArgs(values), onFailure: values.onFailure(), maxErrors: values.positive('max-errors'), markdown: values.flag('markdown') }, output),
  },
  {
    name: 'board',
    synopsis: 'board --out <dir> | --serve',
    summary: 'one self-contained HTML page of the state branch: the queue, every issue with its evidence and agent cost, each task graph',
    options: { out: true, serve: true, port: true, threads: true, ...STATE },
    example: 'converge board --out board/',
    json: '{ page, data, head, issues, bytes }; with --serve: { url }',
    run: ({ values, output, signal }) => {
      const out = values.string('out')
      const threads = threadsOption(values.string('threads'))
      return boardCommand({
        repo: values.string('repo')!, stateBranch: values.string('state-branch')!, ...(out !== undefined ? { out } : {}),
        serve: values.flag('serve'), port: values.port('port'), ...(threads !== undefined ? { twoThreads: threads === 2 } : {}), ...(signal ? { signal } : {}),
      }, output)
    },
  },
]

export function findCommand(name: string): CliCommand | undefined {
  return CLI_COMMANDS.find((c) => c.name === name)
}
