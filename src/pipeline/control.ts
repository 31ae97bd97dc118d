import { stoppedBy, wasStopped, type IssueState, type IssueStatus, type LoopState } from '../model/index.js'
import { statePaths, toStateJson } from '../model/state-layout.js'
import { transact, type StateChange, type StateStore } from '../state/store.js'
import { recordIssue } from '../state/transitions.js'
import { simpleEvent } from './events.js'
import { appendEvent, issueFilePaths, readIssueFiles } from './issue-files.js'

export type ControlSignal = 'pause' | 'resume' | 'stop'

export type ControlResult = { ok: true; status: IssueStatus; commit: string | null; changed: boolean } | { ok: false; reason: string }

/**
 * `pause`, `resume` and `stop` (SPEC §1 LoopState control signals): recorded on the state branch, where a
 * running execution reads them before every action. Pausing keeps progress; stopping ends the run as
 * failed; resuming continues a paused or stopped issue.
 */
export async function signalIssue(store: StateStore, n: number, signal: ControlSignal, actor: string, now: string): Promise<ControlResult> {
  let result = { ok: false, reason: '' } as ControlResult // set by the transaction below
  const { commit } = await transact(
    store,
    async (snapshot) => {
      const { run, issue, plan, loop, events } = await readIssueFiles(snapshot, n, now)
      if (!issue) {
        result = { ok: false, reason: `ISS-${n} is not known to Converge yet: run \`/converge plan\` first` }
        return null
      }
      const next = nextStatus(issue, signal, Boolean(plan))
      if (next === undefined) {
        result = { ok: false, reason: `ISS-${n} is ${issue.status}: nothing to ${signal}` }
        return null
      }
      const updated: IssueState = {
        ...issue,
        status: next,
        error: signal === 'stop' ? stoppedBy(actor) : signal === 'resume' ? null : issue.error,
        updated_at: now,
      }
      result = { ok: true, status: next, commit: null, changed: next !== issue.status }
      if (!result.changed && !loop) return null
      const files: StateChange['files'] = {
        [statePaths.issue(n)]: toStateJson(updated),
        [statePaths.runState]: toStateJson(recordIssue(run, updated, now, { note: `${signal} by ${actor}` })),
        [statePaths.events(n)]: appendEvent(events, n, simpleEvent(now, n, signal, `**By**: @${actor} | **Status**: ${issue.status} → ${next}`)),
      }
      if (loop) files[statePaths.loop(n)] = toStateJson(signalLoop(loop, signal, actor, now))
      return { message: `ISS-${n}: ${signal} by ${actor} (${issue.status} → ${next})`, files }
    },
    { prefetch: issueFilePaths(n) },
  )
  return result.ok ? { ...result, commit } : result
}

function nextStatus(issue: IssueState, signal: ControlSignal, hasPlan: boolean): IssueStatus | undefined {
  const active = issue.status === 'planned' || issue.status === 'queued' || issue.status === 'executing'
  switch (signal) {
    case 'pause':
      return active ? 'paused' : undefined
    case 'stop':
      return active || issue.status === 'paused' ? 'failed' : undefined
    case 'resume':
      if (issue.status !== 'paused' && !wasStopped(issue)) return undefined
      // Pause and stop both end the run they interrupt, so after resume nothing runs until an execute starts one.
      return hasPlan ? 'planned' : 'registered'
  }
}

/** The loop's own status, which the executor checks before every action (`loop-state-schema.md`). */
function signalLoop(loop: LoopState, signal: ControlSignal, actor: string, now: string): LoopState {
  switch (signal) {
    case 'pause':
      return { ...loop, status: 'paused', updated_at: now }
    case 'stop':
      return { ...loop, status: 'failed', failure_reason: stoppedBy(actor), updated_at: now }
    case 'resume': {
      const { failure_reason: _reason, ...rest } = loop
      return { ...rest, status: 'running', updated_at: now }
    }
  }
}
