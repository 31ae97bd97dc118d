/**
 * `converge show --number <n>`: the stored plan as a person approves it — each task's files, dependencies, criteria
 * and commands and how each criterion is checked, the gate's findings grouped, and the content hash `approve`
 * binds. `plan` prints the same after planning.
 */
import type { Solution } from '../../model/index.js'
import { analysePlan } from '../../plan/analyse.js'
import { planHash } from '../../plan/hash.js'
import { issueFilePaths, readIssueFiles } from '../../pipeline/issue-files.js'
import { renderApprovalLine, renderTaskDetails } from '../../report/plan-detail.js'
import { renderPlanText } from '../../report/plan-text.js'
import { printDocument, refuse, type Output } from '../output.js'
import { required, storeOf, type IssueArgs } from './issue.js'

export async function showCommand(args: IssueArgs, output: Output): Promise<number> {
  const n = required(args.number, 'show')
  const store = await storeOf(args)
  const { issue, plan } = await readIssueFiles(await store.snapshot(issueFilePaths(n)), n, new Date().toISOString())
  if (!issue) return refuse(output, `ISS-${n} is not known to Converge yet: converge plan --issue-file <issue.md> --number ${n}`)
  if (!plan) return refuse(output, `ISS-${n} has no plan yet${issue.error ? ` (${issue.error})` : ''}: converge plan --issue-file <issue.md> --number ${n}`)
  const analysis = analysePlan(plan, n)
  const hash = planHash(plan)
  if (output.json) {
    printDocument(output.io, {
      issue: n, title: issue.title, status: issue.status, plan_hash: hash,
      approved: plan.approval?.plan_hash === hash, approved_by: plan.approval?.approved_by ?? null,
      gate: analysis.gate, score: analysis.quality?.quality_score ?? null,
      findings: [...(analysis.quality?.findings ?? []), ...analysis.warnings], plan,
    })
    return 0
  }
  output.io.out([`ISS-${n} · ${issue.title} · ${issue.status}`, '', planForApproval(renderPlanText(analysis), plan, hash, n)].join('\n'))
  return 0
}

/** The plan check (gate, grouped findings, waves), then every task in full, then the hash `approve` binds. */
export function planForApproval(checkText: string, plan: Solution, hash: string, n: number): string {
  return [checkText, '', ...renderTaskDetails(plan), '', renderApprovalLine(plan, hash, n)].join('\n')
}
