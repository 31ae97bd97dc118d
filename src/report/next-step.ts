import { wasStopped } from '../model/index.js'
import { planHash } from '../plan/hash.js'
import { code } from './markdown.js'
import { isInProgress, type ReportView } from './task-view.js'

/** The one thing to do now, with the exact command to comment. */
export function nextStep(view: ReportView): string {
  const { report, analysis, count } = view
  const p = report.commandPrefix
  const solution = report.solution
  if (analysis?.errors.length)
    return `**Next**: fix the plan (in the issue body's \`\`\`json block, or in a \`${p} plan\` comment holding a corrected block), then comment \`${p} plan\`.`
  if (report.status === 'paused') return `**Next**: comment \`${p} resume\` to continue.`
  if (!solution) return `**Next**: comment \`${p} plan\` to make a plan.`
  if (analysis?.gate === 'fail') return `**Next**: the plan fails its quality gate: address the findings, then comment \`${p} plan\`.`
  const hash = code(planHash(solution).slice(0, 19))
  if (view.approval === 'stale')
    return `**Next**: the plan changed after it was approved: comment \`${p} approve\` to approve this version (content hash ${hash}…), then \`${p} execute\`.`
  if (view.approval === 'missing')
    return `**Next**: comment \`${p} approve\` to approve this plan (content hash ${hash}…), then \`${p} execute\`.`
  if (isInProgress(view)) return `**Next**: nothing to do while tasks run; this comment updates as they finish (\`${p} pause\` stops at the next task boundary).`
  if (count.failed) {
    const failed = view.tasks.filter((t) => t.state === 'failed').map((t) => t.task.id)
    const them = failed.length === 1 ? 'it' : 'them'
    return `**Next**: fix what made ${failed.join(', ')} fail (push to the branch, or correct the plan and comment \`${p} plan\`), then comment \`${p} retry ${failed.join(' ')}\` to run ${them} again.`
  }
  if (!view.started) return `**Next**: comment \`${p} execute\` to carry it out.`
  const unproven = view.tasks.filter((t) => t.state === 'unproven').map((t) => t.task.id)
  if (unproven.length && count.converged + unproven.length === view.tasks.length) {
    const them = unproven.length === 1 ? 'it' : 'them'
    return `**Next**: nothing proves the work of ${unproven.join(', ')} (see *Evidence*): check ${them} by hand, or add a command that fails without the change to the plan and comment \`${p} plan\`.`
  }
  if (count.converged === view.tasks.length) {
    const review = report.links.pullRequest ? `review the [pull request](${report.links.pullRequest})` : 'review the changes'
    const manual = view.tasks.filter((t) => t.checks.some((c) => c.verified_by === 'manual' && c.verdict === 'pending')).map((t) => t.task.id)
    const byHand = manual.length ? ` and make the manual checks of ${manual.join(', ')}` : ''
    return `**Next**: every task converged: ${review}${byHand}; \`${p} verify\` runs every verification again against the current code.`
  }
  if (wasStopped(report))
    return `**Next**: execution was stopped: comment \`${p} resume\` to continue where it left off.`
  return `**Next**: comment \`${p} execute\` to carry out the remaining tasks.`
}
