/**
 * The plans the end-to-end suites execute: each task writes `42` to one file, and its verification,
 * `node tools/check.js <file>`, passes only when the file holds 42. The executors differ per suite (what they get
 * wrong, how slow they are); the tasks, the check, the issue body and the repository are these.
 */
import { startEmulator, type Emulator } from './emulator/index.js'

/** tools/check.js of the emulated repository: fails with a `file:1:1: error:` line (an annotation) unless 42. */
export const CHECK_SCRIPT = `
const fs = require('node:fs')
const file = process.argv[2]
const value = fs.existsSync(file) ? fs.readFileSync(file, 'utf8').trim() : '(missing)'
if (value !== '42') { console.error(file + ':1:1: error: expected 42, got ' + value); process.exit(1) }
console.log('ok ' + file)
`

/** A task that writes 42 to `file`, verified by tools/check.js. */
export function answerTask(id: string, file: string, dependsOn: string[] = []) {
  return {
    id, title: `Write ${file}`, action: 'Create', description: `Write the answer to ${file}`,
    files: [{ path: file, action: 'create', changes: [`Write 42 to ${file}`] }],
    implementation: [`Write 42 to ${file}`], test: { commands: [`node tools/check.js ${file}`] },
    convergence: { criteria: [`${file} holds 42`], verification: `node tools/check.js ${file}`, definition_of_done: `${file} holds the answer users expect` },
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
