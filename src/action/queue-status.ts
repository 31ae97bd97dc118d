/**
 * `status` without an issue: the repository's queue, as `sync` last built it, with where each item's
 * issue stands now and whether its plan is approved.
 *
 * Shown in the job summary (and the Outcome summary it is made from), and nowhere else: there is no issue
 * to comment on, and the queue changes with every plan, approval and run, so a copy kept elsewhere (a
 * tracking issue, a file on the state branch) would be stale as soon as anything else ran. The workflow
 * run that asked is where the person who asked looks; `state.json` holds the same queue for programs.
 */
import { RunStateSchema, SolutionSchema, issueNumberOf, type RunState } from '../model/index.js'
import { planHash } from '../plan/hash.js'
import { readAhead } from '../pipeline/sync.js'
import { renderQueueReport, type ApprovalState } from '../queue/render.js'
import { statePaths } from '../model/state-layout.js'
import { CorruptStateError, readStateJson } from '../state/state-files.js'
import type { Outcome, Session } from './session.js'

/** Items whose plans are read for their approval; the report shows as many. */
const MAX_ITEMS = 300

export async function queueStatus(session: Session): Promise<Outcome> {
  const { store, inputs, ctx } = session
  const snapshot = await store.snapshot([statePaths.runState])
  const run = await readStateJson(snapshot, statePaths.runState, RunStateSchema)
  const approvals = run ? await readApprovals(run) : undefined
  const summary = renderQueueReport({
    run,
    ...(approvals ? { approvals } : {}),
    commandPrefix: inputs['command-prefix'],
    maxItems: MAX_ITEMS,
    links: {
      stateFile: `${ctx.serverUrl}/${ctx.repo.owner}/${ctx.repo.repo}/blob/${inputs['state-branch']}/${statePaths.runState}`,
      ...(ctx.runUrl ? { run: ctx.runUrl } : {}),
    },
  })
  return { status: 'queued', summary }

  async function readApprovals(state: RunState): Promise<Map<string, ApprovalState>> {
    const items = state.queue.slice(0, MAX_ITEMS)
    const numbers = new Map(items.map((item) => [item.item_id, state.issues[item.issue_id]?.number ?? issueNumberOf(item.issue_id) ?? 0]))
    const ahead = await readAhead(store, snapshot, [...numbers.values()].map((n) => statePaths.plan(n)))
    const approvals = new Map<string, ApprovalState>()
    for (const item of items) {
      let plan
      try {
        plan = await readStateJson(ahead, statePaths.plan(numbers.get(item.item_id)!), SolutionSchema)
      } catch (error) {
        if (error instanceof CorruptStateError) continue
        throw error
      }
      if (!plan || plan.id !== item.solution_id) continue
      approvals.set(item.item_id, !plan.approval ? 'missing' : plan.approval.plan_hash === planHash(plan) ? 'approved' : 'stale')
    }
    return approvals
  }
}
