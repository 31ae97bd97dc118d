/**
 * Plan-time findings about what will not prove anything (SPEC §7 "Evidence"), for the reviewer to see before
 * approving: a fix or feature task whose only check is the whole test suite, which passes before the change as
 * well as after it; a task that modifies a file the repository does not have; criteria that no command checks.
 */
import type { Finding, Solution, Task } from '../model/index.js'
import { linkedCommand, verificationEntries } from '../model/verification.js'

/** Types whose work must make a check pass that failed before: a suite that passed already proves nothing. */
const CHANGE_TYPES = new Set(['fix', 'feature', 'enhancement'])

/**
 * The whole test suite, named by nothing more than its runner: `npm test`, `pytest`, `go test ./...`,
 * `cargo test`, `make test`… with at most flags after it (`-q`, `--silent`), no test file or name.
 */
const WHOLE_SUITE = new RegExp(
  '^(?:(?:npm|pnpm|yarn|bun)(?: run)? test|npx (?:vitest(?: run)?|jest|mocha)|vitest(?: run)?|jest|mocha|(?:python3? -m )?pytest|' +
    'go test(?: \\./\\.\\.\\.)?|cargo test|make (?:test|check)|mvn test|gradle test|\\./gradlew test|(?:bundle exec )?(?:rspec|rake(?: test)?)|' +
    'dotnet test|mix test|phpunit|(?:vendor/bin/)?phpunit|tox|deno test|bun test)(?: +-{1,2}[\\w-]+(?:=\\S+)?)*$',
)

export function isWholeSuite(command: string): boolean {
  return WHOLE_SUITE.test(command.trim().replace(/\s+/g, ' '))
}

/** Findings that need only the plan: suite-only fix and feature tasks, and the criteria no command checks. */
export function proofFindings(solution: Pick<Solution, 'tasks'>): Finding[] {
  const findings: Finding[] = []
  solution.tasks.forEach((task, i) => {
    const commands = verificationEntries(task).flatMap((e) => (e.kind === 'command' ? [e.command!] : []))
    if (CHANGE_TYPES.has(task.type) && commands.length === 1 && isWholeSuite(commands[0]!))
      findings.push({
        rule: 'suite-only-check',
        severity: 'medium',
        path: `tasks[${i}].test.commands`,
        message: `${task.id} is a ${task.type} task checked only by \`${commands[0]}\`, the whole test suite, which passes before the change too when no test of it exists: it will read as unproven`,
        fix: `Name the test of the change (e.g. \`${commands[0]} -- <the new test file>\`), or add a command that fails until ${task.id} is done`,
      })
  })
  const waiting = solution.tasks.filter((t) => uncheckedCriteria(t) > 0)
  const count = waiting.reduce((sum, t) => sum + uncheckedCriteria(t), 0)
  if (count)
    findings.push({
      rule: 'criteria-without-command',
      severity: 'low',
      path: 'tasks',
      message: `${count} ${count === 1 ? 'criterion' : 'criteria'} of ${waiting.map((t) => t.id).join(', ')} no command checks: ${count === 1 ? 'it waits' : 'they wait'} for a person, and never read as verified`,
      fix: 'Link each criterion to the command that checks it (convergence.criteria_commands: [{ "criterion": "…", "command": "…" }]), or check it by hand after the run',
    })
  return findings
}

/** Criteria of the task that no command it runs is linked to. */
function uncheckedCriteria(task: Task): number {
  return task.convergence.criteria.filter((c) => linkedCommand(task, c) === undefined).length
}

/**
 * Tasks that modify (or delete) a file the repository does not have, and do not create it in the plan: they
 * will change nothing there, or something else than the plan says. `exists` answers for the checkout.
 */
export function missingFileFindings(solution: Pick<Solution, 'tasks'>, exists: (path: string) => boolean): Finding[] {
  const created = new Set(solution.tasks.flatMap((t) => t.files.filter((f) => f.action === 'create').map((f) => normalise(f.path))))
  const findings: Finding[] = []
  solution.tasks.forEach((task, i) => {
    task.files.forEach((file, j) => {
      const path = normalise(file.path)
      if (file.action === 'create' || created.has(path) || /[*?[]/.test(path) || exists(path)) return
      findings.push({
        rule: 'missing-file',
        severity: 'high',
        path: `tasks[${i}].files[${j}].path`,
        message: `${task.id} will ${file.action} \`${file.path}\`, which the repository does not have`,
        fix: `Correct the path, or make it a "create" entry if ${task.id} is to write the file`,
      })
    })
  })
  return findings
}

const normalise = (path: string) => path.trim().replace(/^\.\//, '').replace(/\/+$/, '')

/**
 * The links a planner can make from what it wrote: a criterion is checked by the first command that holds one of
 * the criterion's code spans (`` `slugify('Ça va?')` ``, `` `test/slug.test.js` ``, 4 characters or more) word for word.
 */
export function linkCriteria(criteria: readonly string[], commands: readonly string[]): Array<{ criterion: string; command: string }> {
  return criteria.flatMap((criterion) => {
    const spans = [...criterion.matchAll(/`([^`]{4,})`/g)].map((m) => m[1]!.trim())
    const command = commands.find((c) => spans.some((span) => c.includes(span)))
    return command ? [{ criterion, command }] : []
  })
}
