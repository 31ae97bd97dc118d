/**
 * The CLI's options: each one's type, placeholder, default and meaning. A command names those it takes (the
 * command table); the command line is read strictly against them.
 */
import { parseArgs } from 'node:util'
import { DEFAULT_STATE_BRANCH } from '../model/state-layout.js'
import { didYouMean } from './did-you-mean.js'
import { UsageError } from './usage-error.js'

export interface OptionSpec {
  type: 'string' | 'boolean'
  /** The value's placeholder in help (`<dir>`). */
  value?: string
  default?: string
  short?: string
  help: string
}

export const OPTIONS = {
  repo: { type: 'string', value: '<dir>', default: '.', help: 'the git repository whose state branch keeps the state' },
  'state-branch': { type: 'string', value: '<name>', default: DEFAULT_STATE_BRANCH, help: 'the state branch' },
  number: { type: 'string', value: '<n>', help: 'the issue number' },
  'issue-file': { type: 'string', value: '<issue.md>', help: 'the issue: markdown, a # title, optional YAML front matter (number, title, labels, author)' },
  'plan-file': {
    type: 'string', value: '<plan>',
    help: 'the plan, from a file: a solution JSON (Converge or CCW), a .jsonl line, Markdown with a ```json block, or a Taskmaster tasks.json',
  },
  replace: { type: 'boolean', help: "plan over a recorded issue of this number whose title differs (the file is the same issue, retitled)" },
  planner: { type: 'string', value: '<mode>', default: 'auto', help: 'auto | explicit | builtin | command (auto: a ```json plan in the issue, else the built-in planner)' },
  'planner-command': {
    type: 'string', value: '<cmd>',
    help: '--planner command: the agent CLI, a line of shell that reads $CONVERGE_PLAN_PROMPT_FILE and writes the solution JSON to $CONVERGE_PLAN_FILE',
  },
  executor: { type: 'string', value: '<command>', help: 'an agent preset (claude-code, codex, gemini, aider) or a line of shell that does the task; none: verify only' },
  'max-parallel': { type: 'string', value: '<n>', default: '2', help: 'tasks at once' },
  timeout: { type: 'string', value: '<minutes>', default: '15', help: 'time limit of each command' },
  'max-iterations': { type: 'string', value: '<n>', default: '3', help: 'develop/debug attempts per task' },
  'on-failure': { type: 'string', value: '<policy>', default: 'retry', help: 'retry | skip | abort: what a failed task does to the run' },
  'max-retries': { type: 'string', value: '<n>', default: '1', help: 'reruns of a failed task with --on-failure retry' },
  'max-errors': { type: 'string', value: '<n>', default: '3', help: 'stop after this many failed tasks' },
  retry: { type: 'string', value: '<ids|failed>', help: 'run these recorded tasks again (T1,T3, or failed)' },
  'max-cost-usd': { type: 'string', value: '<usd>', help: "stop starting tasks once the agent's reported cost reaches this" },
  'max-turns': { type: 'string', value: '<n>', help: 'turns of each agent run (the presets pass it to agents that take a turn limit)' },
  evidence: { type: 'string', value: '<on|off>', default: 'on', help: "off: no baseline run of each task's commands before its executor (checks too slow to run twice); evidence is then not-measured" },
  setup: {
    type: 'string', value: '<command>',
    help: "verify: a line of shell that prepares a fresh checkout of the work (installs the project's dependencies: npm ci); given once, kept for the next verify",
  },
  'allow-dirty': { type: 'boolean', help: 'leave uncommitted changes in --repo out of every task commit (else they are refused)' },
  issues: { type: 'string', value: '<folder>', help: 'a folder of issue files (*.md): the open issues' },
  github: { type: 'string', value: '<owner/repo>', help: 'the open issues of a GitHub repository (token from GITHUB_TOKEN or GH_TOKEN, API from GITHUB_API_URL)' },
  label: { type: 'string', value: '<label>', help: '--github: only issues with this label' },
  markdown: { type: 'boolean', help: 'print the comment the action would post on the issue (markdown) instead' },
  all: { type: 'boolean', help: 'every solution of a .jsonl file (one solution per line)' },
  keep: { type: 'boolean', help: 'keep the temporary directory' },
  out: { type: 'string', value: '<dir>', help: 'write the board there: index.html (the page) and board.json (its data)' },
  serve: { type: 'boolean', help: 'serve the board on 127.0.0.1, made again whenever the state branch moves' },
  port: { type: 'string', value: '<n>', default: '8417', help: '--serve: the port (0: any free port)' },
  threads: { type: 'string', value: '<1|2>', help: 'make the board on one thread or two (default: two for 64 MB of state or more, when there are two cores)' },
  json: { type: 'boolean', help: 'print one JSON document on stdout (progress goes to stderr)' },
  help: { type: 'boolean', short: 'h', help: 'show this help' },
  version: { type: 'boolean', help: "print Converge's version" },
} as const satisfies Record<string, OptionSpec>

export type OptionName = keyof typeof OPTIONS

/** Options every command takes. */
export const COMMON_OPTIONS: readonly OptionName[] = ['json', 'help']

export interface CommandLine {
  values: Partial<Record<OptionName, string | boolean>>
  positionals: string[]
  /** The options written on the command line, in order (defaults are not). */
  given: OptionName[]
}

/** The command line, read strictly: an unknown option is a usage error that names the closest known one. */
export function readCommandLine(argv: string[]): CommandLine {
  const options = Object.fromEntries(Object.entries(OPTIONS).map(([name, spec]) => [name, { type: spec.type, ...('short' in spec ? { short: spec.short } : {}) }]))
  try {
    const { values, positionals, tokens } = parseArgs({ args: argv, allowPositionals: true, options, tokens: true })
    const given = tokens.flatMap((t) => (t.kind === 'option' ? [t.name as OptionName] : []))
    return { values: values as CommandLine['values'], positionals, given }
  } catch (error) {
    const message = (error as Error).message
    const unknown = /^Unknown option '(-{1,2}[^']+)'/.exec(message)?.[1]
    if (!unknown) throw new UsageError(message.split('\n')[0]!.replace(/ To specify a positional argument.*$/, ''))
    const close = didYouMean(unknown.replace(/^-+/, ''), Object.keys(OPTIONS))
    throw new UsageError(`unknown option ${unknown}${close ? ` (did you mean --${close}?)` : ''}`)
  }
}

/** The values of a command's options, defaults applied, read and checked one by one. */
export class Values {
  constructor(private readonly values: CommandLine['values']) {}

  string(name: OptionName): string | undefined {
    const value = this.values[name]
    if (typeof value === 'string') return value
    const fallback: OptionSpec = OPTIONS[name]
    return fallback.default
  }

  flag(name: OptionName): boolean {
    return this.values[name] === true
  }

  /** `--number`, a positive integer, when given. */
  number(): number | undefined {
    const value = this.values.number
    if (typeof value !== 'string') return undefined
    const n = Number(value)
    if (!(Number.isInteger(n) && n > 0)) throw new UsageError('--number must be a positive integer')
    return n
  }

  positive(name: OptionName): number {
    const n = Number(this.string(name))
    if (!Number.isInteger(n) || n < 1) throw new UsageError(`--${name} must be a positive whole number`)
    return n
  }

  /** A TCP port, 0 (any free one) to 65535. */
  port(name: OptionName): number {
    const n = Number(this.string(name))
    if (!Number.isInteger(n) || n < 0 || n > 65535) throw new UsageError(`--${name} must be a port number, 0 to 65535`)
    return n
  }

  whole(name: OptionName): number {
    const n = Number(this.string(name))
    if (!Number.isInteger(n) || n < 0) throw new UsageError(`--${name} must be a whole number`)
    return n
  }

  dollars(name: OptionName): number {
    const value = this.string(name) ?? ''
    const n = Number(value)
    if (!/^\d+(\.\d+)?$/.test(value.trim()) || !(n > 0)) throw new UsageError(`--${name} must be an amount of US dollars more than 0, like 5 or 0.25`)
    return n
  }

  onFailure(): 'retry' | 'skip' | 'abort' {
    const value = this.string('on-failure')
    if (value !== 'retry' && value !== 'skip' && value !== 'abort') throw new UsageError('--on-failure must be retry, skip or abort')
    return value
  }
}
