/**
 * Evidence in words a person understands (SPEC §7, §8): one sentence per task, and the tally of a run. The
 * sticky comment, the check run, the job summary and the CLI all say it with these.
 */
import { integrityProblem, PROVING_KINDS, runInconclusive, runPassed, type CheckFile, type EvidenceKind, type EvidenceRun, type TaskEvidence, type TaskResult } from '../model/index.js'

/** How a kind reads in a table or a tally. */
export const KIND_LABEL: Record<EvidenceKind, string> = {
  proven: 'proven',
  'regression-guard': 'regression guard',
  unproven: 'unproven',
  'no-change': 'changed nothing',
  manual: 'manual',
  'not-measured': 'not measured',
}

/**
 * The kind as a short label, with why checks that pass do not prove the change when that is the reason:
 * "unproven: passes without its change (package.json)", "unproven: changed an existing check (test/bytes.js)".
 */
export function evidenceLabel(evidence: TaskEvidence): string {
  const label = KIND_LABEL[evidence.kind]
  if (evidence.kind !== 'unproven' || !evidence.after.every(runPassed)) return label
  const problem = integrityProblem(evidence)
  const files = (evidence.check_files ?? []).slice(0, 2).map((f) => f.path).join(', ') + ((evidence.check_files?.length ?? 0) > 2 ? ', …' : '')
  if (problem === 'inconclusive') return `${label}: a run was killed or timed out`
  if (problem === 'changed-expectations') return `${label}: changed an existing check (${files})`
  if (problem === 'passes-without-change') return `${label}: passes without its change (${files})`
  return label
}

/** Whether a completed task's evidence lets the report call it converged: absent evidence is an older record. */
export function provedBy(result: Pick<TaskResult, 'evidence'>): boolean {
  return !result.evidence || PROVING_KINDS.has(result.evidence.kind)
}

/**
 * "T2: `npm test` failed before (2 failing) and passes after"; "T3 changed nothing: its check already passed
 * before the change". `verify` says what a verification compared.
 */
export function evidenceSentence(taskId: string, evidence: TaskEvidence, mode: 'execute' | 'verify' = 'execute', where: 'pull-request' | 'local' = 'pull-request'): string {
  // Locally there is no pull request: a verification checks the work branch, against the baseline its execution measured.
  if (where === 'local') mode = 'execute'
  const { before, after } = evidence
  const commands = (runs: readonly EvidenceRun[]) => (runs.length === 1 ? quoted(runs[0]!.command) : `its ${runs.length} commands`)
  const change = mode === 'verify' ? 'the pull request' : 'the change'
  switch (evidence.kind) {
    case 'proven': {
      const red = before.find((r) => !runPassed(r))!
      const own = evidence.forward ? `; with its code put back, its own checks fail too (${checkFilesText(evidence.check_files)})` : ''
      return `${taskId}: ${quoted(red.command)} failed before ${change}${failing(red)} and ${after.length === 1 ? 'passes' : after.length === 2 ? 'both commands pass' : `all ${after.length} commands pass`} after${own}`
    }
    case 'regression-guard':
      if (evidence.forward) return `${taskId}: ${commands(after)} ${after.length === 1 ? 'passes' : 'pass'} on the code as it was and after ${change}: ${after.length === 1 ? 'it guards' : 'they guard'} against regressions (${checkFilesText(evidence.check_files)})`
      return `${taskId}: ${commands(after)} passed before and after ${change}: ${after.length === 1 ? 'it guards' : 'they guard'} against regressions`
    case 'unproven': {
      const red = after.find((r) => !runPassed(r))
      if (red) return `${taskId}: ${quoted(red.command)} fails after ${change}${failing(red)}`
      const integrity = integritySentence(taskId, evidence, change)
      if (integrity) return integrity
      return `${taskId}: ${commands(after)} already passed before ${change}: nothing shows ${change} did what the task asks`
    }
    case 'no-change': {
      const what = mode === 'verify' ? `${taskId}: the pull request changed nothing` : `${taskId} changed nothing`
      if (after.length === 0) return `${what}, and no command checks it`
      const passed = after.every(runPassed)
      if (!passed) return `${what}: ${commands(after)} ${after.length === 1 ? 'fails' : 'fail'}`
      return `${what}: ${after.length === 1 ? 'its check' : 'its checks'} already passed before ${mode === 'verify' ? 'it' : 'the change'}`
    }
    case 'manual':
      return `${taskId} has no command to run: a person checks it`
    case 'not-measured':
      return mode === 'verify'
        ? `${taskId}: ${commands(after)} ${after.length === 1 ? 'passes' : 'pass'}, run on this code only: nothing shows ${after.length === 1 ? 'it' : 'they'} failed without it`
        : `${taskId}: not measured (evidence: off): ${commands(after)} ran after the change only`
  }
}

/**
 * Why checks that pass after a change do not prove it (SPEC §7 "Evidence integrity"): "T1 unproven: its checks pass
 * without its change (package.json's scripts, changed by the task)".
 */
function integritySentence(taskId: string, evidence: TaskEvidence, change: string): string | undefined {
  const problem = integrityProblem(evidence)
  const files = checkFilesText(evidence.check_files)
  if (problem === 'inconclusive') {
    const killed = [...evidence.before, ...(evidence.forward ?? []), ...(evidence.reverse ?? [])].find(runInconclusive)!
    const when = evidence.before.includes(killed) ? `before ${change}` : `without ${change}`
    return `${taskId} unproven: ${quoted(killed.command)} was killed or timed out ${when}${failing(killed)}: nothing shows it failed without ${change}`
  }
  const passesWithout = evidence.forward !== undefined && problem !== undefined
  const red = evidence.reverse?.find((r) => !runPassed(r))
  if (red) {
    const restored = (evidence.check_files ?? []).filter((f) => f.change !== 'created' && !f.role.includes('ignored')).map((f) => f.path)
    const both = passesWithout && !evidence.forward!.some((r) => !runPassed(r)) ? 'its checks pass without its change, and ' : ''
    return `${taskId} unproven: ${both}it changed what an existing check expects: ${quoted(red.command)} fails with ${restored.join(', ') || 'its check files'} put back as ${restored.length === 1 ? 'it was' : 'they were'}${failing(red)} (${files}); a person must review that change`
  }
  if (problem === 'passes-without-change') return `${taskId} unproven: its checks pass without its change (${files})`
  return undefined
}

/** "package.json's scripts, changed by the task; test/unparsable.js, a test file, created by the task". */
export function checkFilesText(files: readonly CheckFile[] | undefined): string {
  if (!files?.length) return 'no check file changed'
  const named = files.slice(0, 4).map((f) => (f.role.includes(f.path) ? `${f.role}, ${f.change} by the task` : `${f.path}, ${f.role}, ${f.change} by the task`))
  return named.join('; ') + (files.length > 4 ? `; and ${files.length - 4} more` : '')
}

/** A command in a sentence: in backticks, cut to a length a sentence can carry. */
function quoted(command: string): string {
  const line = command.replace(/\s+/g, ' ').trim()
  return `\`${line.length > 72 ? `${line.slice(0, 71)}…` : line}\``
}

/** " (2 failing)" when the output says how many tests failed. */
function failing(run: EvidenceRun): string {
  if (run.exit_code === null) return ' (killed or timed out)'
  if (runInconclusive(run)) return ` (killed: exit ${run.exit_code})`
  const failed = failingCount(run.output_tail)
  if (failed) return ` (${failed} failing)`
  return run.exit_code === 127 ? ' (the command was not there yet)' : ` (exit ${run.exit_code})`
}

/**
 * The failing tests a runner's summary names last ("2 failing", "3 failed", "failures: 1"), or undefined. A sentence
 * needs no more: the full counts of the runs after the change are in their checks.
 */
function failingCount(output: string): number | undefined {
  const found = [...output.matchAll(/\b(\d+) (?:failing|failed|failures?)\b|\bfail(?:ed|ures?)?:? (\d+)\b/gi)].at(-1)
  const count = Number(found?.[1] ?? found?.[2] ?? 0)
  return count > 0 ? count : undefined
}

/** How many finished tasks have each kind of evidence. */
export function evidenceTally(results: readonly TaskResult[]): Partial<Record<EvidenceKind, number>> {
  const tally: Partial<Record<EvidenceKind, number>> = {}
  for (const r of results) if (r.status !== 'skipped' && r.evidence) tally[r.evidence.kind] = (tally[r.evidence.kind] ?? 0) + 1
  return tally
}

/** "2 proven, 1 changed nothing" in the order of the kinds; empty when nothing was measured. */
export function tallyText(tally: Partial<Record<EvidenceKind, number>>): string {
  return (Object.keys(KIND_LABEL) as EvidenceKind[]).filter((k) => tally[k]).map((k) => `${tally[k]} ${KIND_LABEL[k]}`).join(', ')
}

/** "3 criteria wait for a person": the criteria no command checks, or undefined when there are none. */
export function waitingCriteria(count: number): string | undefined {
  return count ? `${count} ${count === 1 ? 'criterion waits' : 'criteria wait'} for a person` : undefined
}

/**
 * "3/4 tasks converged" of a run, and when tasks completed without proof, what they are: "3/4 tasks converged, 1
 * not proven (T3 changed nothing)". Only proven tasks are called converged.
 */
export function convergedTally(total: number, results: readonly TaskResult[]): string {
  const completed = results.filter((r) => r.status === 'completed')
  const unproven = completed.filter((r) => !provedBy(r))
  const tally = `${completed.length - unproven.length}/${total} tasks converged`
  if (!unproven.length) return tally
  const named = unproven.slice(0, 3).map((r) => `${r.task_id} ${evidenceLabel(r.evidence!)}`).join(', ')
  return `${tally}, ${unproven.length} not proven (${named}${unproven.length > 3 ? ', …' : ''})`
}
