/**
 * Runs the built action (`dist/index.js`) the way a GitHub-hosted runner runs a `uses:` step: a checkout of the
 * repository as the workspace, the event payload in a file, the runner's `GITHUB_*` / `RUNNER_*` variables, every
 * input as `INPUT_<NAME>` (action.yml defaults first), file commands (`GITHUB_OUTPUT`, `GITHUB_STEP_SUMMARY`, …) in
 * files, and nothing else of the test process's environment. The API is the emulator.
 *
 * ```ts
 * const run = await runAction({ gh, event: issueLabeledEvent({ gh, issue: 42, label: 'converge:plan', sender: 'alice' }) })
 * expect(run.exitCode).toBe(0)
 * expect(run.outputs.status).toBe('planned')
 * await run.dispose()                 // or disposeRuns() in afterEach
 * ```
 */
import { spawn } from 'node:child_process'
import diagnostics from 'node:diagnostics_channel'
import { existsSync, readFileSync } from 'node:fs'
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import type { AddressInfo, Server } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parse } from 'yaml'
import { runGit } from '../../src/git/git.js'
import type { Emulator } from './emulator/index.js'
import { SERVER_URL, WORKFLOW_PATH, type ActionEvent } from './events.js'
import { hangGuard } from './suite-size.js'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const ACTION_ENTRY = fileURLToPath(new URL('../../dist/index.js', import.meta.url))
const LOCAL_ACTION = fileURLToPath(new URL('../../node_modules/@github/local-action/bin/local-action.js', import.meta.url))
const ACTION_YML = fileURLToPath(new URL('../../action.yml', import.meta.url))
/**
 * The Node that runs `dist/index.js`: the one action.yml declares when CI installed it from the registry
 * (`scripts/install-action-node.mjs`, `.ci/run`), else this process's own.
 */
const ACTION_NODE = process.env.CONVERGE_ACTION_NODE || process.execPath

/** The only variables of the test process a run sees: where programs are, and git's and npm's home. */
const INHERITED_VARIABLES = ['PATH', 'HOME'] as const

/** Pacing knobs of the GitHub client: production waits 1 s between writes, as GitHub asks of integrations. */
const FAST_PACING = { CONVERGE_WRITE_INTERVAL_MS: '0', CONVERGE_RETRY_UNIT_MS: '10' }

// A guard against a hung action, not a measure: a loaded CI machine has taken over 50 s for a three-task run.
const DEFAULT_TIMEOUT_MS = hangGuard(50_000)

export interface RunActionOptions {
  gh: Emulator
  event: ActionEvent
  /** inputs by their action.yml name (`'max-parallel': '3'`), over action.yml's defaults */
  inputs?: Record<string, string>
  /** variables set last, over the runner's (and over the pacing knobs) */
  env?: Record<string, string>
  /** the process group is killed after this long (default 50 s) */
  timeoutMs?: number
  /** aborting kills the process group with SIGKILL at once, as a runner that disappears would */
  kill?: AbortSignal
  /**
   * The signal `kill` sends to the process group (default SIGKILL). SIGTERM (or SIGINT) is a cancelled job: the
   * action may end on its own, and the group is SIGKILLed only at the timeout or once the action has exited.
   */
  killSignal?: NodeJS.Signals
  /** Runs after the checkout and before the action, like a step before Converge's (persisting credentials, say). */
  prepare?: (paths: RunnerPaths) => Promise<void>
  /**
   * What runs the action: `dist/index.js` as a runner does (default), or `@github/local-action` on `src/main.ts`'s
   * `run()` with its own stand-ins for `@actions/core` and `@actions/github` (outputs are then printed, not filed).
   */
  via?: 'dist' | 'local-action'
}

export interface ActionRun {
  /** null when the process was killed by a signal (see `timedOut`) */
  exitCode: number | null
  signal: NodeJS.Signals | null
  timedOut: boolean
  stdout: string
  stderr: string
  /** what the action wrote to GITHUB_OUTPUT */
  outputs: Record<string, string>
  /** what the action wrote to GITHUB_STEP_SUMMARY */
  summary: string
  /** messages of `::error::`, `::warning::`, `::notice::`, `::add-mask::` and `::debug::` commands, unescaped */
  errors: string[]
  warnings: string[]
  notices: string[]
  masked: string[]
  debug: string[]
  durationMs: number
  /** from spawning the action to the emulator receiving its first request; null when it sent none */
  timeToFirstRequestMs: number | null
  /** the checkout the action ran in (GITHUB_WORKSPACE); it lives until `dispose` */
  workspace: string
  /** removes the run's directories, the workspace included */
  dispose(): Promise<void>
}

/** The directories and files of one run, all under one temporary root. */
export interface RunnerPaths {
  root: string
  workspace: string
  temp: string
  toolCache: string
  event: string
  output: string
  summary: string
  state: string
  env: string
  path: string
}

export function runnerPaths(root: string): RunnerPaths {
  const files = join(root, 'files')
  return {
    root,
    workspace: join(root, 'workspace'),
    temp: join(root, 'temp'),
    toolCache: join(root, 'tool-cache'),
    event: join(files, 'event.json'),
    output: join(files, 'output'),
    summary: join(files, 'step_summary'),
    state: join(files, 'state'),
    env: join(files, 'env'),
    path: join(files, 'path'),
  }
}

/** What the runner's variables of one run are made of. */
export interface RunnerSetup {
  paths: RunnerPaths
  apiUrl: string
  graphqlUrl: string
  event: ActionEvent
  ref: string
  sha: string
  runNumber: number
  /** every input's value, by action.yml name */
  inputs: Record<string, string>
  env?: Record<string, string>
}

/**
 * The whole environment of the action's process: PATH and HOME of the test process, the runner's variables,
 * the inputs, the pacing knobs, then `setup.env`. Nothing else is inherited.
 */
export function runnerEnv(setup: RunnerSetup): Record<string, string> {
  const { paths, event, ref } = setup
  const repository = event.payload.repository as { full_name: string; id: number; owner: { login: string; id: number } }
  const sender = event.payload.sender as { login: string; id: number }
  const inherited = Object.fromEntries(INHERITED_VARIABLES.flatMap((name) => (process.env[name] === undefined ? [] : [[name, process.env[name]!]])))
  const inputs = Object.fromEntries(Object.entries(setup.inputs).map(([name, value]) => [inputVariable(name), value]))
  return {
    ...inherited,
    CI: 'true',
    LANG: 'C.UTF-8',
    GITHUB_ACTIONS: 'true',
    GITHUB_ACTION: 'converge',
    GITHUB_ACTOR: sender.login,
    GITHUB_ACTOR_ID: String(sender.id),
    GITHUB_TRIGGERING_ACTOR: sender.login,
    GITHUB_API_URL: setup.apiUrl,
    GITHUB_GRAPHQL_URL: setup.graphqlUrl,
    GITHUB_SERVER_URL: SERVER_URL,
    GITHUB_REPOSITORY: repository.full_name,
    GITHUB_REPOSITORY_ID: String(repository.id),
    GITHUB_REPOSITORY_OWNER: repository.owner.login,
    GITHUB_REPOSITORY_OWNER_ID: String(repository.owner.id),
    GITHUB_EVENT_NAME: event.eventName,
    GITHUB_EVENT_PATH: paths.event,
    GITHUB_REF: ref,
    GITHUB_REF_NAME: ref.replace(/^refs\/(heads|tags)\//, ''),
    GITHUB_REF_TYPE: ref.startsWith('refs/tags/') ? 'tag' : 'branch',
    GITHUB_SHA: setup.sha,
    GITHUB_HEAD_REF: '',
    GITHUB_BASE_REF: '',
    GITHUB_WORKFLOW: 'Converge',
    GITHUB_WORKFLOW_REF: `${repository.full_name}/${WORKFLOW_PATH}@${ref}`,
    GITHUB_WORKFLOW_SHA: setup.sha,
    GITHUB_JOB: 'converge',
    GITHUB_RUN_ID: String(1_000_000 + setup.runNumber),
    GITHUB_RUN_NUMBER: String(setup.runNumber),
    GITHUB_RUN_ATTEMPT: '1',
    GITHUB_RETENTION_DAYS: '90',
    GITHUB_WORKSPACE: paths.workspace,
    GITHUB_OUTPUT: paths.output,
    GITHUB_STEP_SUMMARY: paths.summary,
    GITHUB_STATE: paths.state,
    GITHUB_ENV: paths.env,
    GITHUB_PATH: paths.path,
    RUNNER_OS: 'Linux',
    RUNNER_ARCH: 'X64',
    RUNNER_NAME: 'GitHub Actions 1',
    RUNNER_ENVIRONMENT: 'github-hosted',
    RUNNER_TEMP: paths.temp,
    RUNNER_TOOL_CACHE: paths.toolCache,
    ...inputs,
    ...FAST_PACING,
    ...setup.env,
  }
}

/** `INPUT_<NAME>` as @actions/core's getInput reads it: spaces become `_`, upper case, dashes kept. */
export function inputVariable(name: string): string {
  return `INPUT_${name.replace(/ /g, '_').toUpperCase()}`
}

/** Every input of action.yml with its default (`${{ github.token }}` is `token`), then `overrides`. */
export function actionInputs(token: string, overrides: Record<string, string> = {}): Record<string, string> {
  const declared = (parse(readFileSync(ACTION_YML, 'utf8')) as { inputs: Record<string, { default?: string }> }).inputs
  const unknown = Object.keys(overrides).filter((name) => !(name in declared))
  if (unknown.length > 0) throw new Error(`action.yml declares no input ${unknown.join(', ')}`)
  const defaults = Object.entries(declared).map(([name, input]) => [name, evaluateDefault(name, input.default ?? '', token)])
  return { ...Object.fromEntries(defaults), ...overrides }
}

function evaluateDefault(name: string, value: string, token: string): string {
  if (value.trim() === '${{ github.token }}') return token
  if (value.includes('${{')) throw new Error(`the harness cannot evaluate the default of ${name}: ${value}`)
  return value
}

let runCount = 0
const liveRuns = new Set<ActionRun>()

/** Runs `dist/index.js` for `event` against the emulator `gh` and collects what it reported. */
export async function runAction(options: RunActionOptions): Promise<ActionRun> {
  if (!existsSync(ACTION_ENTRY)) throw new Error(`${ACTION_ENTRY} is missing: run npm run build:action`)
  const { gh, event } = options
  const paths = runnerPaths(await mkdtemp(join(tmpdir(), 'converge-e2e-')))
  const removeRoot = () => rm(paths.root, { recursive: true, force: true })
  try {
    const ref = eventRef(event, gh.state.repository.defaultBranch)
    await prepareFiles(paths, event)
    const sha = await checkout(gh, ref, paths)
    await options.prepare?.(paths)
    const env = runnerEnv({
      paths,
      apiUrl: gh.url,
      graphqlUrl: gh.graphqlUrl,
      event,
      ref,
      sha,
      runNumber: ++runCount,
      inputs: actionInputs(gh.token, options.inputs),
      env: options.env,
    })
    const firstRequest = watchFirstRequest(gh.url)
    const started = performance.now()
    // local-action runs from the package (it finds tsx and the toolkit there); the action finds the checkout by GITHUB_WORKSPACE.
    const launch = options.via === 'local-action'
      ? { node: process.execPath, args: [LOCAL_ACTION, 'run', ROOT, 'src/main.ts', await dotenvFile(join(paths.root, 'files', 'local-action.env'), env)], cwd: ROOT }
      : { node: ACTION_NODE, args: [ACTION_ENTRY], cwd: paths.workspace }
    const exited = await runNode(launch.node, launch.args, {
      cwd: launch.cwd, env, timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      ...(options.kill ? { kill: options.kill, killSignal: options.killSignal ?? 'SIGKILL' } : {}),
    }).finally(
      () => firstRequest.stop(),
    )
    const durationMs = performance.now() - started
    const commands = parseWorkflowCommands(exited.stdout)
    const run: ActionRun = {
      ...exited,
      outputs: parseFileCommand(await readFile(paths.output, 'utf8')),
      summary: await readFile(paths.summary, 'utf8'),
      errors: commands.error,
      warnings: commands.warning,
      notices: commands.notice,
      masked: commands['add-mask'],
      debug: commands.debug,
      durationMs,
      timeToFirstRequestMs: firstRequest.at === undefined ? null : firstRequest.at - started,
      workspace: paths.workspace,
      dispose: async () => {
        liveRuns.delete(run)
        await removeRoot()
      },
    }
    liveRuns.add(run)
    return run
  } catch (error) {
    await removeRoot()
    throw error
  }
}

/** Disposes every run not disposed yet (for `afterEach`). */
export async function disposeRuns(): Promise<void> {
  await Promise.all([...liveRuns].map((run) => run.dispose()))
}

/** The ref the workflow runs on: the pushed or dispatched ref of the payload, else the default branch (issue events). */
function eventRef(event: ActionEvent, defaultBranch: string): string {
  const ref = event.payload.ref
  return typeof ref === 'string' && ref.startsWith('refs/') ? ref : `refs/heads/${defaultBranch}`
}

/** The run's directories, the event file and the empty files of the file commands (@actions/core wants them to exist). */
async function prepareFiles(paths: RunnerPaths, event: ActionEvent): Promise<void> {
  await Promise.all([paths.temp, paths.toolCache, join(paths.root, 'files')].map((dir) => mkdir(dir, { recursive: true })))
  await Promise.all([paths.output, paths.summary, paths.state, paths.env, paths.path].map((file) => writeFile(file, '')))
  await writeFile(paths.event, JSON.stringify(event.payload, null, 2))
}

/**
 * The inputs as a dotenv file for local-action: it starts the action through a shell, which drops variables whose
 * names are not shell identifiers (`INPUT_GITHUB-TOKEN`), then loads this file into the action's environment.
 */
async function dotenvFile(path: string, env: Record<string, string>): Promise<string> {
  const lines = Object.entries(env).filter(([name]) => name.startsWith('INPUT_')).map(([name, value]) => {
    if (/['\n]/.test(value)) throw new Error(`the local-action harness cannot quote ${name}: ${value}`)
    return `${name}='${value}'`
  })
  await writeFile(path, `${lines.join('\n')}\n`)
  return path
}

/** Clones the emulator's repository into the workspace at `ref`, as actions/checkout does; returns its sha (GITHUB_SHA). */
async function checkout(gh: Emulator, ref: string, paths: RunnerPaths): Promise<string> {
  const branch = ref.replace(/^refs\/heads\//, '')
  const sha = await gh.state.branchHead(branch)
  if (sha === null) throw new Error(`the emulator has no branch ${branch}: start it with files, or seed a commit`)
  await runGit(['clone', '--quiet', '--branch', branch, gh.repoDir, paths.workspace], { cwd: paths.root })
  return sha
}

interface Exited {
  exitCode: number | null
  signal: NodeJS.Signals | null
  timedOut: boolean
  stdout: string
  stderr: string
}

/**
 * Runs `<node> <args>` in a process group of its own. On timeout the whole group is killed; after the exit, what
 * is left of the group (a command the action started and did not wait for) is killed too.
 */
function runNode(
  node: string,
  args: string[],
  options: { cwd: string; env: Record<string, string>; timeoutMs: number; kill?: AbortSignal; killSignal?: NodeJS.Signals },
): Promise<Exited> {
  return new Promise((resolve, reject) => {
    const child = spawn(node, args, { cwd: options.cwd, env: options.env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] })
    const stdout: Buffer[] = []
    const stderr: Buffer[] = []
    let timedOut = false
    const killGroup = (signal: NodeJS.Signals = 'SIGKILL') => {
      try {
        process.kill(-child.pid!, signal)
      } catch {
        // the group is gone already
      }
    }
    const timer = setTimeout(() => {
      timedOut = true
      killGroup()
    }, options.timeoutMs)
    // A kill asked for before the process started lands as soon as it exists.
    if (options.kill?.aborted) killGroup(options.killSignal)
    else options.kill?.addEventListener('abort', () => killGroup(options.killSignal), { once: true })
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk))
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk))
    child.on('error', (error) => {
      clearTimeout(timer)
      reject(error)
    })
    child.on('exit', () => killGroup())
    child.on('close', (exitCode, signal) => {
      clearTimeout(timer)
      const text = (chunks: Buffer[]) => Buffer.concat(chunks).toString('utf8')
      resolve({ exitCode, signal, timedOut, stdout: text(stdout), stderr: text(stderr) })
    })
  })
}

/**
 * Notes when the emulator at `apiUrl` receives its first request, through Node's `http.server.request.start`
 * diagnostics channel (the emulator's request log has no timestamps). Requests of anything else to the same
 * emulator during the run count too.
 */
function watchFirstRequest(apiUrl: string): { readonly at: number | undefined; stop(): void } {
  const port = Number(new URL(apiUrl).port)
  let at: number | undefined
  const onRequest = (message: unknown) => {
    const address = (message as { server: Server }).server.address() as AddressInfo | null
    if (at === undefined && address?.port === port) at = performance.now()
  }
  diagnostics.subscribe('http.server.request.start', onRequest)
  return {
    get at() {
      return at
    },
    stop: () => diagnostics.unsubscribe('http.server.request.start', onRequest),
  }
}

/**
 * The values of a file command file (GITHUB_OUTPUT, GITHUB_ENV, GITHUB_STATE) as the runner reads them: `name=value`
 * lines, and `name<<DELIMITER` … `DELIMITER` blocks (what @actions/core writes), the later of a name winning.
 */
export function parseFileCommand(text: string): Record<string, string> {
  const values: Record<string, string> = {}
  const lines = text.split(/\r?\n/)
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!
    if (line === '') continue
    const equals = line.indexOf('=')
    const heredoc = line.indexOf('<<')
    if (equals >= 0 && (heredoc < 0 || equals < heredoc)) {
      values[line.slice(0, equals)] = line.slice(equals + 1)
      continue
    }
    if (heredoc < 0) throw new Error(`invalid file command line: ${line}`)
    const delimiter = line.slice(heredoc + 2)
    const end = lines.indexOf(delimiter, i + 1)
    if (end < 0) throw new Error(`file command ${line.slice(0, heredoc)} has no closing ${delimiter}`)
    values[line.slice(0, heredoc)] = lines.slice(i + 1, end).join('\n')
    i = end
  }
  return values
}

const REPORTED_COMMANDS = ['error', 'warning', 'notice', 'add-mask', 'debug'] as const

export type ReportedCommand = (typeof REPORTED_COMMANDS)[number]

/**
 * The messages of the workflow commands in `stdout` (`::error file=a.ts,line=3::message`), by command, unescaped
 * as the runner does (`%0D`, `%0A`, `%25`). Commands other than these are left alone.
 */
export function parseWorkflowCommands(stdout: string): Record<ReportedCommand, string[]> {
  const messages = Object.fromEntries(REPORTED_COMMANDS.map((name) => [name, [] as string[]])) as Record<ReportedCommand, string[]>
  for (const line of stdout.split(/\r?\n/)) {
    const match = /^::([\w-]+)(?: [^:]*)?::(.*)$/.exec(line)
    const name = match?.[1] as ReportedCommand | undefined
    if (name !== undefined && REPORTED_COMMANDS.includes(name)) messages[name].push(unescapeData(match![2]!))
  }
  return messages
}

/** Reverses @actions/core's escapeData in one pass, so an escaped `%250A` stays the text `%0A`. */
function unescapeData(data: string): string {
  const escapes: Record<string, string> = { '%0D': '\r', '%0A': '\n', '%25': '%' }
  return data.replace(/%(?:0D|0A|25)/g, (escape) => escapes[escape]!)
}
