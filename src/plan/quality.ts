import type { Finding, QualityGate, QualityReport, Severity, Solution, Task } from '../model/index.js'
import type { DagAnalysis } from './dag.js'
import { verificationEntries } from '../model/verification.js'

// `task-generation-execution-spec.md`, "Vague Pattern Detection": the seed's patterns, with the English
// ones as whole words so that "define" or "goodput" are not taken for "fine" and "good".
export const VAGUE_PATTERNS = /正常|正确|好|可以|没问题|\b(?:works|fine|good|correct|properly|as expected)\b/i
export const TECHNICAL_IN_DOD = /compile|build|lint|npm|npx|jest|tsc|eslint|cargo|pytest|go test/i
/**
 * A criterion longer than this is specific enough even when it uses a vague word. The seed writes
 * "< 20", which lets its own bad example "Code works correctly" (20 characters) through.
 */
const VAGUE_MAX_LENGTH = 20
/**
 * Criteria about the process rather than the software — who agrees, how the work is split, what gets
 * reviewed — cannot be checked against the code. In the languages issues are written in.
 */
export const PROCESS_CRITERION = [
  /\b(?:everyone|everybody|the team|stakeholders?|reviewers?|maintainers?|users?) (?:is|are|feels?|seems?) (?:happy|satisfied|ok|okay|fine|on board)\b/i,
  /\b(?:split|break) (?:this|it|the work) (?:up )?into (?:several|multiple|smaller|separate) (?:PRs|pull requests|issues|commits)\b/i,
  /\b(?:PR|pull request|change|code)s? (?:is|are|gets?|has been|have been) (?:merged|approved|reviewed)\b/i,
  /\b(?:reviewed|approved|signed off) by\b|\bsign[- ]off\b|\b(?:get|gets|getting) (?:approval|feedback|buy-in)\b/i,
  /\b(?:discuss(?:ed)? (?:with|in)|talk to|agree (?:with|on)|decide (?:with|on)|to be decided|TBD)\b/i,
  /(?:大家|团队|所有人)(?:都)?(?:满意|同意|认可)|(?:代码)?评审通过|讨论(?:后|一下)|拆分成(?:多个|几个)\s*PR/,
  /(?:みんな|チーム|全員)が(?:満足|合意|納得)|レビュー(?:で承認|を通過|が通る)|相談(?:する|して)/,
  /\b(?:todos|a equipe|o time) (?:est[ãa]o|fica[mr]?) (?:satisfeitos?|de acordo)|\b(?:aprovad[oa]|revisad[oa]) (?:pel[oa]|por)\b|\bdiscutir com\b/i,
]

/** A verification shorter than this cannot be executed (the seed's threshold), unless it is a command. */
const VERIFICATION_MIN_LENGTH = 5

/** `solution-schema.md`, "质量门控": the weights of the four components. */
export const SCORE_WEIGHTS = {
  completeness: 0.3,
  dependency_validity: 0.2,
  testable_acceptance: 0.3,
  complexity_assessed: 0.2,
} as const
export const PASS_SCORE = 0.8
export const REVIEW_SCORE = 0.6

const ANALYSIS_FIELDS = ['risk', 'impact', 'complexity'] as const

/**
 * Scores a plan and lists what a reviewer would change, in O(total plan size).
 * Findings come out ordered by severity, then by task (solution-level findings after the tasks).
 */
export function assessQuality(solution: Solution, dag: DagAnalysis): QualityReport {
  const bySeverity: Record<Severity, Finding[]> = { critical: [], high: [], medium: [], low: [] }
  const report = (finding: Finding) => bySeverity[finding.severity].push(finding)

  const tasks = solution.tasks
  let complete = 0
  let testable = 0
  for (let i = 0; i < tasks.length; i++) {
    const result = checkTask(tasks[i]!, `tasks[${i}]`, report)
    if (result.complete) complete++
    testable += result.testable
  }

  let assessed = 0
  for (const field of ANALYSIS_FIELDS) {
    if (solution.analysis?.[field] !== undefined) assessed++
    else
      report({
        rule: 'analysis-missing',
        severity: 'low',
        path: `analysis.${field}`,
        message: `The plan does not assess its ${field}`,
        fix: `Set analysis.${field} to low, medium or high`,
      })
  }

  const unordered = unorderedSharedFiles(tasks, dag)
  for (const finding of unordered.findings) report(finding)
  const breakdown = {
    completeness: fraction(complete, tasks.length),
    dependency_validity: dependencyValidity(tasks, dag, unordered.tasks),
    testable_acceptance: fraction(testable, tasks.length),
    complexity_assessed: fraction(assessed, ANALYSIS_FIELDS.length),
  }
  const score = round4(
    breakdown.completeness * SCORE_WEIGHTS.completeness +
      breakdown.dependency_validity * SCORE_WEIGHTS.dependency_validity +
      breakdown.testable_acceptance * SCORE_WEIGHTS.testable_acceptance +
      breakdown.complexity_assessed * SCORE_WEIGHTS.complexity_assessed,
  )
  const unverified = nothingVerifiedByACommand(tasks)
  if (unverified) report(unverified)
  const misread = workLeftOut(solution)
  if (misread) report(misread)
  const risky = highRisk(solution)
  if (risky) report(risky)
  const issues_by_severity = {
    critical: bySeverity.critical.length,
    high: bySeverity.high.length,
    medium: bySeverity.medium.length,
    low: bySeverity.low.length,
  }
  return {
    score,
    quality_score: Math.round(score * 100),
    quality_gate: capAtReview(qualityGate(score, issues_by_severity.critical > 0), unverified !== undefined || misread !== undefined),
    breakdown,
    findings: [...bySeverity.critical, ...bySeverity.high, ...bySeverity.medium, ...bySeverity.low],
    issues_by_severity,
  }
}

/** pass ≥ 0.8 without a critical finding; review ≥ 0.6 (or ≥ 0.8 with one); fail below 0.6. */
export function qualityGate(score: number, hasCritical: boolean): QualityGate {
  if (score >= PASS_SCORE && !hasCritical) return 'pass'
  return score >= REVIEW_SCORE ? 'review' : 'fail'
}

/**
 * Gate rule: a plan where no command will run cannot pass — nothing would check its work (at most review).
 * Kept as one small rule: the finding, and `capAtReview` where the gate is decided.
 */
function nothingVerifiedByACommand(tasks: readonly Task[]): Finding | undefined {
  const entries = tasks.flatMap((t) => verificationEntries(t))
  if (entries.some((e) => e.kind === 'command')) return undefined
  return {
    rule: 'no-command-verification',
    severity: 'high',
    path: 'tasks',
    message: `Nothing will be verified by a command: ${entries.length ? 'every verification is manual' : 'no task has a verification'}`,
    fix: 'Give at least one task a command to run, e.g. "verification": ["npm test"] or "Run: npm test"',
  }
}

/**
 * Gate rule (issue 38): a plan that leaves out work the issue asks for, or whose criteria the issue did not state
 * (`left_out` entries marked `work`), cannot pass: a person checks what was left out (at most review).
 */
function workLeftOut(solution: Solution): Finding | undefined {
  const work = (solution.left_out ?? []).filter((l) => l.work)
  if (!work.length) return undefined
  return {
    rule: 'issue-work-left-out',
    severity: 'high',
    path: 'left_out',
    message: `The plan leaves out what the issue asks: ${work.map((l) => `"${l.item}" (${l.reason})`).join('; ')}`,
    fix: 'Give each left-out item a task (or a criterion) of its own, or say in the plan why it is not needed',
  }
}

/**
 * Gate rule (issue 38): a plan whose risk is high says why (data changed in production, authentication or access,
 * a public API removed, a security report), so that the approver reads it before approving. It does not lower the gate.
 */
function highRisk(solution: Solution): Finding | undefined {
  if (solution.analysis?.risk !== 'high') return undefined
  const why = solution.analysis.risk_reason
  return {
    rule: 'high-risk',
    severity: 'medium',
    path: 'analysis.risk',
    message: `The plan is high risk${why ? ` (${why})` : ''}`,
    fix: 'Read the plan with the risk in mind before approving it: a dry run, a backup or a second reviewer',
  }
}

function capAtReview(gate: QualityGate, unverified: boolean): QualityGate {
  return unverified && gate === 'pass' ? 'review' : gate
}

interface TaskResult {
  /** A title, something to go on (description or implementation) and at least one criterion. */
  complete: boolean
  /** 0..1: half for specific criteria, half for a command that can be run. */
  testable: number
}

function checkTask(task: Task, at: string, report: (finding: Finding) => void): TaskResult {
  const task_id = task.id
  const { criteria, verification, definition_of_done } = task.convergence

  let vague = 0
  criteria.forEach((criterion, k) => {
    if (PROCESS_CRITERION.some((pattern) => pattern.test(criterion))) {
      vague++
      report({
        rule: 'untestable-criterion', severity: 'medium', task_id, path: `${at}.convergence.criteria[${k}]`,
        message: `Criterion "${criterion}" is about the process, not the software: no check of the code can decide it`, value: criterion,
        fix: 'Keep process notes out of the criteria (put them in the description) and state what the software does when the work is done',
      })
    } else if (sameWords(criterion, task.title)) {
      vague++
      report({
        rule: 'criterion-repeats-title', severity: 'medium', task_id, path: `${at}.convergence.criteria[${k}]`,
        message: `Criterion "${criterion}" only repeats ${task_id}'s title: it says what to do, not how to tell it is done`, value: criterion,
        fix: 'State what is observably true once the task is done, e.g. "GET /export?format=csv returns the rows with their tags"',
      })
    } else if (criterion.length <= VAGUE_MAX_LENGTH && VAGUE_PATTERNS.test(criterion)) {
      vague++
      report({
        rule: 'vague-criterion', severity: 'medium', task_id, path: `${at}.convergence.criteria[${k}]`,
        message: `Criterion "${criterion}" is too vague to check`, value: criterion,
        fix: 'Replace it with an observable condition, e.g. "refreshToken() returns a new JWT with >0 expiry when called with an expired token"',
      })
    }
  })
  if (criteria.length === 0)
    report({
      rule: 'no-criteria', severity: 'critical', task_id, path: `${at}.convergence.criteria`,
      message: `${task_id} has no convergence criteria: nothing says when it is done`,
      fix: 'Add at least one observable condition to convergence.criteria, e.g. "GET /health returns 200 with { status: \'ok\' }"',
    })

  const entries = verificationEntries(task)
  const runnable = entries.some((e) => e.kind === 'command')
  // A short verification that is a command (`make`) is fine. If it is not listed as manual, it is a
  // command: either listed as one or merged into the same command from test.commands.
  const hasManualVerification = entries.some((e) => e.kind === 'manual' && e.source === 'convergence.verification')
  const trimmedVerification = verification.trim()
  if (trimmedVerification.length < VERIFICATION_MIN_LENGTH && hasManualVerification)
    report({
      rule: 'verification-too-short', severity: 'high', task_id, path: `${at}.convergence.verification`,
      message: `Verification "${trimmedVerification}" is too short to be executed`, value: trimmedVerification,
      fix: 'Give a shell command (e.g. "npm test -- auth.test.ts") or numbered steps, one per line',
    })
  if (!runnable) {
    const manual = entries.length
    report({
      rule: 'no-runnable-verification', severity: 'high', task_id, path: `${at}.convergence.verification`,
      message: manual
        ? `${task_id} can only be verified by hand: ${manual === 1 ? 'its one verification step is' : `all ${manual} verification steps are`} manual`
        : `${task_id} has no verification: no test command and no verification step`,
      fix: 'Add a command to test.commands or a line "Run: <command>" to convergence.verification (e.g. "Run: npm test -- auth")',
    })
  }

  if (!definition_of_done.trim())
    report({
      rule: 'no-definition-of-done', severity: 'low', task_id, path: `${at}.convergence.definition_of_done`,
      message: `${task_id} has no definition of done`,
      fix: 'Say in business language what is true for users when the task is done, e.g. "Users remain logged in across token expiration"',
    })
  else if (TECHNICAL_IN_DOD.test(definition_of_done))
    report({
      rule: 'technical-definition-of-done', severity: 'low', task_id, path: `${at}.convergence.definition_of_done`,
      message: 'The definition of done names technical commands; a non-technical stakeholder cannot judge it',
      value: definition_of_done,
      fix: 'Rewrite it as the user or system outcome (e.g. "Users remain logged in across token expiration") and move commands to test.commands',
    })

  task.files.forEach((file, k) => {
    if (file.action === 'modify' && file.changes.length === 0)
      report({
        rule: 'modify-without-changes', severity: 'medium', task_id, path: `${at}.files[${k}].changes`,
        message: `${file.path} is to be modified but no change is described`, value: file.path,
        fix: `Describe what specifically changes in ${file.path}, e.g. "Add await to refreshToken() call at line 89"`,
      })
  })
  if (task.files.length === 0)
    report({
      rule: 'no-files', severity: 'low', task_id, path: `${at}.files`,
      message: `${task_id} names no files`,
      fix: 'List the files it creates or changes in files[] ({ path, action, changes }): the executor gets concrete targets and the scheduler keeps tasks that touch the same file apart',
    })

  const hasDescription = task.description.trim() !== ''
  const hasSteps = task.implementation.length > 0
  if (!hasSteps && !hasDescription)
    report({
      rule: 'no-guidance', severity: 'high', task_id, path: `${at}.implementation`,
      message: `${task_id} has neither a description nor implementation steps: the executor has only the title`,
      fix: 'Describe the task and add implementation steps ({ "step": "1", "description": …, "actions": [] })',
    })
  else if (!hasSteps)
    report({
      rule: 'no-implementation', severity: 'medium', task_id, path: `${at}.implementation`,
      message: `${task_id} has no implementation steps`,
      fix: 'Add at least one step describing how to realise this task',
    })

  return {
    complete: task.title.trim() !== '' && (hasDescription || hasSteps) && criteria.length > 0,
    testable: (criteria.length > 0 && vague === 0 ? 0.5 : 0) + (runnable ? 0.5 : 0),
  }
}

/** The same text once case, punctuation and spacing are set aside. */
function sameWords(a: string, b: string): boolean {
  const words = (text: string) => text.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean).join(' ')
  return words(a) !== '' && words(a) === words(b)
}

/**
 * The share of tasks whose order is sound: no DAG error names them (cycle members included) and they
 * share no file with a task they are not ordered against.
 */
function dependencyValidity(tasks: readonly Task[], dag: DagAnalysis, unordered: ReadonlySet<string>): number {
  if (dag.errors.length === 0 && unordered.size === 0) return 1
  const named = new Set<string>(unordered)
  for (const error of dag.errors) {
    named.add(error.task_id)
    for (const id of error.cycle ?? []) named.add(id)
  }
  let clean = 0
  for (const task of tasks) if (!named.has(task.id)) clean++
  return fraction(clean, tasks.length)
}

/**
 * Tasks that change the same file while neither depends on the other, even indirectly: the plan does not
 * say which goes first (the scheduler keeps them apart, in plan order, which may be the wrong one). Two
 * tasks at the same dependency depth cannot reach each other, so comparing depths finds them in
 * O(tasks + dependencies + file entries); a pair at different depths is taken as ordered. One finding per file.
 */
function unorderedSharedFiles(tasks: readonly Task[], dag: DagAnalysis): { findings: Finding[]; tasks: Set<string> } {
  const found = { findings: [] as Finding[], tasks: new Set<string>() }
  if (!dag.conflicts.length) return found
  const byId = new Map(tasks.map((t, i) => [t.id, { task: t, index: i }]))
  const depth = new Map<string, number>()
  for (const id of dag.order) {
    let d = 0
    for (const dep of byId.get(id)?.task.depends_on ?? []) d = Math.max(d, (depth.get(dep) ?? -1) + 1)
    depth.set(id, d)
  }
  for (const conflict of dag.conflicts) {
    const seen = new Map<number, string>()
    for (const id of conflict.tasks) {
      const d = depth.get(id)
      if (d === undefined) continue
      const other = seen.get(d)
      if (other === undefined) {
        seen.set(d, id)
        continue
      }
      found.tasks.add(other).add(id)
      found.findings.push({
        rule: 'unordered-shared-file', severity: 'medium', task_id: id, path: `tasks[${byId.get(id)!.index}].depends_on`,
        message: `${other} and ${id} both change ${conflict.path} but neither depends on the other: the plan does not say which goes first`,
        value: conflict.path,
        fix: `Add "depends_on": ["${other}"] to ${id} (or the other way round), or merge the two changes to ${conflict.path} into one task`,
      })
      break
    }
  }
  return found
}

/** A share in 0..1; an empty plan has no complete task. */
function fraction(count: number, total: number): number {
  return total === 0 ? 0 : round4(count / total)
}

/** Four decimals: enough to show, and keeps 0.3 + 0.2 + 0.3 from landing at 0.7999… below a threshold. */
function round4(value: number): number {
  return Math.round(value * 10_000) / 10_000
}
