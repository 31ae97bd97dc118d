/**
 * The plans the end-to-end suites execute: each task writes `42` to one file, and its verification,
 * `node tools/check.js <file>`, passes only when the file holds 42 (the pipeline's own tests: `ok`, checked by
 * tools/check.cjs). The executors differ per suite (what they get wrong, how slow they are); the tasks, the check,
 * the issue body and the repository are these.
 */
import { startEmulator, type Emulator } from './emulator/index.js'

/** What a plan's tasks write and the command that checks it: `42` and tools/check.js in the end-to-end suites. */
export interface Answer {
  value: string
  check: string
}

export const FORTY_TWO: Answer = { value: '42', check: 'tools/check.js' }

/** The check script: fails with a `file:1:1: error:` line (an annotation) unless the file holds `value`. */
export function checkScript(value: string): string {
  return `
const fs = require('node:fs')
const file = process.argv[2]
const value = fs.existsSync(file) ? fs.readFileSync(file, 'utf8').trim() : '(missing)'
if (value !== '${value}') { console.error(file + ':1:1: error: expected ${value}, got ' + value); process.exit(1) }
console.log('ok ' + file)
`
}

/** tools/check.js of the emulated repository. */
export const CHECK_SCRIPT = checkScript(FORTY_TWO.value)

/** A task that writes the answer (42) to `file`, verified by its check (`node tools/check.js <file>`). */
export function answerTask(id: string, file: string, dependsOn: string[] = [], answer: Answer = FORTY_TWO) {
  const { value, check } = answer
  return {
    id, title: `Write ${file}`, action: 'Create', description: `Write the answer to ${file}`,
    files: [{ path: file, action: 'create', changes: [`Write ${value} to ${file}`] }],
    implementation: [`Write ${value} to ${file}`], test: { commands: [`node ${check} ${file}`] },
    convergence: { criteria: [`${file} holds ${value}`], verification: `node ${check} ${file}`, definition_of_done: `${file} holds the answer users expect` },
    depends_on: dependsOn,
  }
}

/** A plan of answer tasks, as an issue's author or an agent writes it. */
export function answerPlan(tasks: ReturnType<typeof answerTask>[], description = 'Write the answers') {
  return { description, analysis: { risk: 'low', impact: 'low', complexity: 'low' }, tasks }
}

/** An issue body carrying `plan` in a ```json block. */
export function issueBodyWithPlan(plan: unknown): string {
  return `Write the answers.\n\n\`\`\`json\n${JSON.stringify(plan, null, 2)}\n\`\`\`\n`
}

/**
 * An emulated repository for answer plans: `executor` as tools/executor.js, the check as tools/check.js, and
 * alice, who has write permission and is the one who comments.
 */
export async function startAnswerRepo(executor: string): Promise<Emulator> {
  const gh = await startEmulator({
    owner: 'octo-org', repo: 'demo',
    files: { 'README.md': '# demo\n', 'tools/executor.js': executor, 'tools/check.js': CHECK_SCRIPT },
  })
  gh.seed.user({ login: 'alice' })
  gh.seed.permission('alice', 'write')
  return gh
}
