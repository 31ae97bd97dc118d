import type { Task } from './task.js'

/**
 * One thing that verifies a task: a command Converge runs (its exit code is the verdict) or a manual
 * check it lists for a person and never runs.
 */
export interface VerificationEntry {
  source: 'test.commands' | 'convergence.verification'
  /** The entry as written in the plan (trimmed). */
  text: string
  kind: 'command' | 'manual'
  /** What would be run, for commands: the entry without its `Run:`, `$` or backtick wrapping. */
  command?: string
}

/**
 * Programs whose name, as the first word of a one-line verification, makes that line a command.
 * Case-sensitive on purpose: "Test the login page" and "Make sure…" are prose, `test -f x` and `make` are not.
 */
const KNOWN_TOOLS = new Set([
  // JavaScript / TypeScript
  'npm', 'npx', 'pnpm', 'yarn', 'node', 'deno', 'bun', 'tsc', 'tsx', 'jest', 'vitest', 'mocha', 'playwright',
  'eslint', 'prettier', 'biome',
  // Python
  'pytest', 'python', 'python3', 'pip', 'uv', 'poetry', 'tox', 'ruff', 'mypy',
  // Go, Rust, C and friends
  'go', 'cargo', 'rustc', 'make', 'cmake', 'ctest',
  // JVM, .NET
  'mvn', 'gradle', 'java', 'javac', 'sbt', 'dotnet',
  // Ruby, PHP, Swift, Elixir
  'ruby', 'bundle', 'rake', 'rspec', 'php', 'composer', 'phpunit', 'swift', 'mix',
  // Shell and general tools
  'bash', 'sh', 'zsh', 'cd', 'git', 'grep', 'rg', 'test', '[', 'ls', 'cat', 'diff', 'jq', 'curl', 'wget',
  'docker', 'kubectl', 'terraform',
])

const LIST_MARKER = /^(?:[-*]|\d+\.)\s+/
const RUN_PREFIX = /^run\s*:\s*/i
const DOLLAR_PREFIX = /^\$\s+/
const MANUAL_PREFIX = /^manual\s*:/i
/** An entry fully wrapped in one, two or three backticks, with no backtick inside. */
const BACKTICKED = /^(`{1,3})([^`]+)\1$/
/** `NAME=value` words before the program, as in `CI=1 npm test`. */
const ENV_ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=\S*$/
/** `./x`, `../x`, or a script under `bin/`, `scripts/`, `script/` or `tools/`, or any `*.sh`. */
const SCRIPT_PATH = /^(?:\.{1,2}\/\S|(?:bin|scripts?|tools)\/\S|\S+\.sh$)/

/**
 * The verification entries of a task, in order: `test.commands` first, then the lines of
 * `convergence.verification`. A command that appears twice is listed (and run) once.
 */
export function verificationEntries(task: Task): VerificationEntry[] {
  const entries: VerificationEntry[] = []
  const commands = new Set<string>()

  for (const raw of task.test.commands) {
    const text = raw.trim()
    if (text) addCommand(entries, commands, 'test.commands', text, explicitCommand(text) ?? text)
  }

  const lines = verificationLines(task.convergence.verification)
  for (const text of lines) {
    const entry = text.replace(LIST_MARKER, '')
    const command = MANUAL_PREFIX.test(entry)
      ? undefined
      : explicitCommand(entry) ?? (lines.length === 1 && looksLikeCommand(entry) ? entry : undefined)
    if (command) addCommand(entries, commands, 'convergence.verification', text, command)
    else entries.push({ source: 'convergence.verification', text, kind: 'manual' })
  }
  return entries
}

function addCommand(
  entries: VerificationEntry[], commands: Set<string>, source: VerificationEntry['source'], text: string, command: string,
) {
  if (commands.has(command)) return
  commands.add(command)
  entries.push({ source, text, kind: 'command', command })
}

function verificationLines(verification: string): string[] {
  const lines: string[] = []
  for (const line of verification.split('\n')) {
    const text = line.trim()
    if (text) lines.push(text)
  }
  return lines
}

/** The command of an entry explicitly marked as one (`Run:`, `$`, backticks), or undefined. */
function explicitCommand(entry: string): string | undefined {
  let command: string
  if (RUN_PREFIX.test(entry)) command = entry.replace(RUN_PREFIX, '')
  else if (DOLLAR_PREFIX.test(entry)) command = entry.replace(DOLLAR_PREFIX, '')
  else if (BACKTICKED.test(entry)) command = entry
  else return undefined
  // `Run: \`npm test\`` and `` `$ npm test` `` both mean `npm test`.
  command = command.trim().replace(BACKTICKED, '$2').trim().replace(DOLLAR_PREFIX, '').trim()
  return command || undefined
}

function looksLikeCommand(line: string): boolean {
  const words = line.split(/\s+/)
  let i = 0
  while (i < words.length - 1 && ENV_ASSIGNMENT.test(words[i]!)) i++
  const program = words[i]!
  return KNOWN_TOOLS.has(program) || SCRIPT_PATH.test(program)
}

/**
 * The canonical `convergence.verification` text of a verification written as an array: each entry is judged
 * on its own, so a bare command among several (`["npm test -- token", "npx tsc --noEmit"]`) is marked
 * `Run:` and runs, where the same lines written as one text would be manual. `Manual:` entries, entries
 * already marked and prose are kept as written. One entry (or a single text) is returned unchanged.
 */
export function verificationFromEntries(entries: string[]): string {
  if (entries.length < 2) return entries.join('\n')
  return entries
    .map((raw) => {
      const entry = raw.trim().replace(LIST_MARKER, '')
      if (entry.includes('\n') || MANUAL_PREFIX.test(entry) || explicitCommand(entry)) return raw.trim()
      return looksLikeCommand(entry) ? `Run: ${entry}` : raw.trim()
    })
    .join('\n')
}

/** The rule above, for docs/plan-format.md (kept here so the documentation cannot drift from the code). */
export const VERIFICATION_RULE_MARKDOWN = `## Which verification entries are run

Converge runs a verification entry only when it is a command; everything else is a manual check that is
listed in the report and never run.

1. Every entry of \`test.commands[]\` is a command.
2. \`convergence.verification\` is read one entry per line. Blank lines are ignored and a leading list
   marker (\`-\`, \`*\`, \`1.\`) is removed.
3. An entry written \`Run: <command>\` (any case), \`$ <command>\` or wrapped entirely in backticks
   (\`\` \`<command>\` \`\`) is a command; the marker is not part of what is
   run (in \`test.commands\` too).
4. An entry written \`Manual: <step>\` is a manual check.
5. Any other entry is a command only when the whole verification is exactly one line and that line looks like
   a command: its first word (after \`NAME=value\` assignments) is a known tool, written in lower case
   (${[...KNOWN_TOOLS].map((tool) => `\`${tool}\``).join(', ')}), or a script path (\`./x\`, \`../x\`,
   \`bin/x\`, \`script/x\`, \`scripts/x\`, \`tools/x\`, \`x.sh\`).
6. Everything else — prose, or numbered steps on one line such as "1. Run npm test 2. Verify …" — is manual.
7. A command that appears more than once (for example in \`test.commands\` and as \`Run:\` in the verification)
   runs once.
`

/**
 * The command that checks a criterion, by the task's `convergence.criteria_commands` link, when that command is
 * one the task runs (a link to a command the task does not run checks nothing); else undefined.
 */
export function linkedCommand(task: Task, criterion: string): string | undefined {
  const link = task.convergence.criteria_commands?.find((l) => l.criterion.trim() === criterion.trim())
  if (!link) return undefined
  const wanted = explicitCommand(link.command.trim()) ?? link.command.trim()
  return verificationEntries(task).find((e) => e.kind === 'command' && e.command === wanted)?.command
}
