import { describe, expect, it } from 'vitest'
import { RunStateSchema, type IssueState } from '../../src/model/index.js'
import { buildQueue, openBlockers, queueGroups, type QueueCandidate } from '../../src/queue/index.js'
import { initialRunState, recordIssue, registeredIssue } from '../../src/state/transitions.js'

const NOW = '2026-03-01T00:00:00Z'

const candidate = (number: number, files: string[], extra: Partial<QueueCandidate> = {}): QueueCandidate => ({
  number, solutionId: `SOL-ISS-${number}-1`, status: 'queued', priority: 'medium', prioritySource: 'tasks', files, ...extra,
})

describe('blocked issues in the queue', () => {
  it('a blocked issue comes after its queued blocker, which goes as early as the most urgent issue waiting for it', () => {
    const items = buildQueue([
      candidate(1, ['src/a.ts'], { priority: 'critical', waitsFor: [{ number: 5, status: 'queued' }] }),
      candidate(2, ['src/two.ts']),
      candidate(5, ['src/five.ts'], { priority: 'low' }),
    ])
    expect(items.map((i) => [i.item_id, i.issue_id, i.group, i.depends_on])).toEqual([
      ['S-1', 'ISS-5', 'S2', []],
      ['S-2', 'ISS-1', 'S2', ['S-1']],
      ['S-3', 'ISS-2', 'P1', []],
    ])
    // Without the dependency, #5 (low) would go last.
    expect(buildQueue([candidate(1, ['src/a.ts'], { priority: 'critical' }), candidate(2, ['src/two.ts']), candidate(5, ['src/five.ts'], { priority: 'low' })]).map((i) => i.issue_id))
      .toEqual(['ISS-1', 'ISS-2', 'ISS-5'])
    expect(items[1]!.reason).toBe('after S-1: waits for #5 (S-1)')
    expect(items[0]!.reason).toBe('first of S2 (#1 waits for #5): S2 runs 2 solutions one after the other because some wait for others')
    expect(queueGroups(items).map((g) => [g.id, g.kind])).toEqual([['P1', 'parallel'], ['S2', 'sequential']])
  })

  it('a chain 3 → 2 → 1 (an ordered epic) runs 1, 2, 3; files shared with a fourth keep it in the group', () => {
    const items = buildQueue([
      candidate(3, ['src/c.ts'], { waitsFor: [{ number: 2, status: 'queued' }] }),
      candidate(2, ['src/b.ts'], { waitsFor: [{ number: 1, status: 'queued' }] }),
      candidate(1, ['src/a.ts']),
      candidate(4, ['src/a.ts']),
    ])
    expect(items.map((i) => i.issue_id)).toEqual(['ISS-1', 'ISS-2', 'ISS-3', 'ISS-4'])
    const group = queueGroups(items)
    expect(group).toHaveLength(1)
    expect(group[0]!.items.map((i) => i.issue_id)).toEqual(['ISS-1', 'ISS-2', 'ISS-3', 'ISS-4'])
    expect(items[3]!.reason).toContain('it changes src/a.ts like S-1')
    // Everything the builder writes is valid state.
    expect(() => RunStateSchema.parse({ ...initialRunState(NOW), queue: items })).not.toThrow()
  })

  it('a blocker that is no more than waited for blocks nothing in the queue, and its item says what it waits for', () => {
    const items = buildQueue([candidate(4, ['src/x.ts'], { waitsFor: [{ number: 9, status: 'not planned' }] })])
    expect(items[0]!.reason).toBe('P1: changes no file another queued solution changes; waits for #9 (not planned), not queued')
  })

  it('a cycle of blocked issues (text references can make one) loses no item', () => {
    const items = buildQueue([
      candidate(1, ['a'], { waitsFor: [{ number: 2, status: 'queued' }] }),
      candidate(2, ['b'], { waitsFor: [{ number: 1, status: 'queued' }] }),
    ])
    expect(items.map((i) => i.issue_id).sort()).toEqual(['ISS-1', 'ISS-2'])
    expect(new Set(items.map((i) => i.group))).toEqual(new Set(['S1']))
  })
})

describe('openBlockers', () => {
  const issue = (number: number, status: IssueState['status']): IssueState => ({ ...registeredIssue({ number, title: `#${number}`, labels: [] }, NOW), status })

  it('completed, closed and untracked blockers are done; the rest are named with their status', () => {
    let run = initialRunState(NOW)
    for (const [n, status] of [[1, 'completed'], [2, 'executing'], [3, 'planned'], [4, 'failed'], [5, 'registered']] as const) run = recordIssue(run, issue(n, status), NOW)
    run = { ...run, issues: { ...run.issues, 'ISS-4': { ...run.issues['ISS-4']!, closed: true } } }
    expect(openBlockers([1, 2, 3, 4, 5, 99], run.issues)).toEqual([
      { number: 2, status: 'executing' }, { number: 3, status: 'planned' }, { number: 5, status: 'not planned' },
    ])
    expect(openBlockers(undefined, run.issues)).toEqual([])
  })

  it('the run state keeps what an issue is blocked by, from its issue state', () => {
    const run = recordIssue(initialRunState(NOW), { ...issue(7, 'planned'), blocked_by: [3] }, NOW)
    expect(run.issues['ISS-7']!.blocked_by).toEqual([3])
    // Recorded again without blockers: the summary drops them.
    expect(recordIssue(run, issue(7, 'planned'), NOW).issues['ISS-7']!.blocked_by).toBeUndefined()
  })
})
