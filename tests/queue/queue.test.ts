import { describe, expect, it } from 'vitest'
import { RunStateSchema, SolutionInputSchema, type IssueState, type RunState } from '../../src/model/index.js'
import {
  buildQueue, labelPriority, queueGroups, queueIsCurrent, renderQueueReport, solutionFiles, solutionPriority,
  type QueueCandidate,
} from '../../src/queue/index.js'
import { initialRunState, recordIssue } from '../../src/state/transitions.js'

const NOW = '2026-03-01T00:00:00Z'

const candidate = (number: number, files: string[], extra: Partial<QueueCandidate> = {}): QueueCandidate => ({
  number, solutionId: `SOL-ISS-${number}-1`, status: 'queued', priority: 'medium', prioritySource: 'tasks', files, ...extra,
})

/** #1 and #3 share src/a.ts, #3 and #5 share src/b.ts, #2 and #4 share nothing with anyone. */
const FIVE = [
  candidate(1, ['src/a.ts', 'src/one.ts']),
  candidate(2, ['src/two.ts']),
  candidate(3, ['src/a.ts', 'src/b.ts']),
  candidate(4, ['docs/four.md']),
  candidate(5, ['./src/b.ts']),
]

describe('the queue (pure)', () => {
  it('orders five overlapping solutions into a parallel group and a sequential group, and says why', () => {
    const items = buildQueue([...FIVE].reverse())
    expect(items.map((i) => [i.item_id, i.issue_id, i.group, i.position, i.depends_on])).toEqual([
      ['S-1', 'ISS-1', 'S2', 1, []],
      ['S-2', 'ISS-2', 'P1', 1, []],
      ['S-3', 'ISS-3', 'S2', 2, ['S-1']],
      ['S-4', 'ISS-4', 'P1', 2, []],
      ['S-5', 'ISS-5', 'S2', 3, ['S-3']],
    ])
    const reason = Object.fromEntries(items.map((i) => [i.item_id, i.reason]))
    expect(reason['S-3']).toBe('after S-1: both change src/a.ts (same priority medium: #1 before #3)')
    expect(reason['S-5']).toBe('after S-3: both change src/b.ts (same priority medium: #3 before #5)')
    expect(reason['S-1']).toBe('first of S2 (same priority medium: #1 before #3): S2 runs 3 solutions one after the other because they change src/a.ts, src/b.ts')
    expect(reason['S-2']).toBe('P1: changes no file another queued solution changes, so it runs alongside the rest of the group')
    expect(items[4]!.files).toEqual(['src/b.ts'])
    expect(items.every((i) => i.status === 'pending' && i.priority === 'medium' && i.priority_source === 'tasks')).toBe(true)

    const groups = queueGroups(items)
    expect(groups.map((g) => [g.id, g.kind, g.items.map((i) => i.item_id), g.sharedFiles])).toEqual([
      ['P1', 'parallel', ['S-2', 'S-4'], []],
      ['S2', 'sequential', ['S-1', 'S-3', 'S-5'], ['src/a.ts', 'src/b.ts']],
    ])
    // Every item is valid against the stored schema.
    expect(() => RunStateSchema.parse({ ...initialRunState(NOW), queue: items })).not.toThrow()
  })

  it('puts the more urgent first, and an issue already executing before anything, with the reason', () => {
    const items = buildQueue([
      candidate(1, ['src/a.ts']),
      candidate(3, ['src/a.ts'], { priority: 'critical', prioritySource: 'label' }),
      candidate(7, ['src/a.ts'], { status: 'executing', priority: 'low' }),
    ])
    expect(items.map((i) => [i.item_id, i.issue_id, i.status])).toEqual([
      ['S-1', 'ISS-7', 'executing'], ['S-2', 'ISS-3', 'pending'], ['S-3', 'ISS-1', 'pending'],
    ])
    expect(items[1]!.reason).toBe('after S-1: both change src/a.ts (S-1 is already executing)')
    expect(items[2]!.reason).toBe('after S-2: both change src/a.ts (priority critical before medium)')
  })

  it('keeps a sequential group in one chain, naming the item a solution really conflicts with', () => {
    // #1 shares x with #2 and y with #3; #2 and #3 share nothing, yet run one at a time in the group.
    const items = buildQueue([candidate(1, ['x', 'y']), candidate(2, ['x']), candidate(3, ['y'])])
    expect(items.map((i) => i.group)).toEqual(['S1', 'S1', 'S1'])
    expect(items[2]!.reason).toBe('after S-2, one at a time in S1: it changes y like S-1 (same priority medium: #2 before #3)')
  })

  it('explains an item that joined its group through a later item', () => {
    const items = buildQueue([
      candidate(1, ['x'], { priority: 'high' }), candidate(2, ['y'], { priority: 'medium' }), candidate(3, ['x', 'y'], { priority: 'low' }),
    ])
    expect(items.map((i) => i.depends_on)).toEqual([[], ['S-1'], ['S-2']])
    expect(items[1]!.reason).toBe('after S-1, one at a time in S1: it changes y like S-3, which comes later (priority high before medium (most urgent task))')
  })

  it('puts a solution whose plan names no file in the parallel group, and an empty list makes an empty queue', () => {
    expect(buildQueue([])).toEqual([])
    const [only] = buildQueue([candidate(9, [])])
    expect(only).toMatchObject({ item_id: 'S-1', group: 'P1', position: 1, reason: 'P1: its plan names no file, so it conflicts with nothing' })
  })

  // Its speed at this size is measured in bench/sync.ts (`only=sync`), against a baseline of the same run.
  it('groups 5,000 solutions over a few hot files', () => {
    const many = Array.from({ length: 5_000 }, (_, i) => candidate(i + 1, [`src/own-${i}.ts`, ...(i % 10 === 0 ? [`src/hot-${i % 3}.ts`] : [])]))
    const items = buildQueue(many)
    const groups = queueGroups(items)
    expect(groups.map((g) => [g.id, g.items.length])).toEqual([['P1', 4_500], ['S2', 167], ['S3', 167], ['S4', 166]])
  })
})

describe('priorities', () => {
  it('reads priority labels, the most urgent winning', () => {
    expect(labelPriority(['bug', 'priority: high'])).toBe('high')
    expect(labelPriority(['P3', 'priority/critical'])).toBe('critical')
    expect(labelPriority(['low priority'])).toBe('low')
    expect(labelPriority(['urgent'])).toBe('critical')
    expect(labelPriority(['prio-2'])).toBe('medium')
    expect(labelPriority(['bug', 'enhancement', 'high'])).toBeUndefined()
  })

  it("takes a solution's priority and files from its tasks", () => {
    const solution = SolutionInputSchema.parse({
      id: 'SOL-ISS-1-1', issue_id: 'ISS-1', description: 'd',
      tasks: [
        { id: 'T1', title: 'a', priority: 'low', files: [{ path: 'src/b.ts', action: 'modify' }] },
        { id: 'T2', title: 'b', priority: 2, modification_points: [{ file: './src/a.ts', target: 'f', change: 'c' }] },
      ],
    })
    expect(solutionPriority(solution)).toBe('high') // numeric priorities count from 1 = critical
    expect(solutionFiles(solution)).toEqual(['src/a.ts', 'src/b.ts'])
  })
})

describe('the queue in the run state', () => {
  const issue = (number: number, status: IssueState['status']): IssueState => ({
    id: `ISS-${number}`, number, title: `Issue ${number}`, status, solution_id: `SOL-ISS-${number}-1`, planned_at: NOW, executed_at: null,
    error: null, labels: [], author: null, url: null, body_sha: null, feedback: [], updated_at: NOW,
  })
  const queued = (): RunState => {
    let run = initialRunState(NOW)
    for (const n of [1, 2, 3, 4, 5]) run = recordIssue(run, issue(n, 'queued'), NOW)
    return { ...run, queue: buildQueue(FIVE) }
  }

  it('is current while it holds every queued solution; a newly planned, finished or re-planned issue makes it stale', () => {
    const run = queued()
    expect(queueIsCurrent(run)).toBe(true)
    expect(queueIsCurrent(recordIssue(run, issue(6, 'planned'), NOW))).toBe(false)
    expect(queueIsCurrent(recordIssue(run, issue(6, 'registered'), NOW))).toBe(true)
    expect(queueIsCurrent(recordIssue(run, issue(2, 'completed'), NOW))).toBe(false)
    expect(queueIsCurrent(recordIssue(run, { ...issue(2, 'queued'), solution_id: 'SOL-ISS-2-2' }, NOW))).toBe(false)
    expect(queueIsCurrent({ ...run, issues: { ...run.issues, 'ISS-4': { ...run.issues['ISS-4']!, closed: true } } })).toBe(false)
    expect(queueIsCurrent({ ...run, issues: { ...run.issues, 'ISS-4': { ...run.issues['ISS-4']!, priority: 'high' } } })).toBe(false)
  })

  it('follows its issues: recording an issue as executing, completed or failed updates its item', () => {
    let run = recordIssue(queued(), issue(3, 'executing'), NOW)
    expect(run.queue.find((i) => i.issue_id === 'ISS-3')!.status).toBe('executing')
    run = recordIssue(run, issue(3, 'completed'), NOW)
    run = recordIssue(run, issue(4, 'failed'), NOW)
    expect(run.queue.map((i) => i.status)).toEqual(['pending', 'pending', 'completed', 'failed', 'pending'])
    expect(run.history.at(-1)).toMatchObject({ issue_id: 'ISS-4', from: 'queued', to: 'failed' })
  })

  it('renders the groups, the items and the reasons', () => {
    const run = { ...recordIssue(queued(), issue(6, 'planned'), NOW), queue_built_at: NOW }
    const approvals = new Map([['S-1', 'approved' as const], ['S-3', 'stale' as const]])
    const md = renderQueueReport({ run, approvals, commandPrefix: '/converge' })
    expect(md).toContain('**5 solutions** in **2 groups** (1 parallel, 1 sequential)')
    expect(md).toContain('| P1 | parallel | S-2 ∥ S-4 | — |')
    expect(md).toContain('| S2 | sequential | S-1 → S-3 → S-5 | `src/a.ts`, `src/b.ts` |')
    expect(md).toContain('#### S2 · sequential: S-1 → S-3 → S-5')
    expect(md).toContain('| **S-3** (2/3) | #3 Issue 3 | `SOL-ISS-3-1` | queued | plan changed since approval | medium | `src/a.ts`, `src/b.ts` | after S-1: both change src/a.ts (same priority medium: #1 before #3) |')
    expect(md).toContain('| **S-1** (1/3) | #1 Issue 1 | `SOL-ISS-1-1` | queued | approved |')
    expect(md).toContain('- Planned since the queue was built, not queued yet: #6.')
    expect(md).toContain('```mermaid')
    expect(md).toContain('S_1 --> S_3')
  })

  it('says so when there is no state or nothing is queued', () => {
    expect(renderQueueReport({ run: undefined, commandPrefix: '/converge' })).toContain('Nothing is queued: Converge has no state in this repository yet.')
    expect(renderQueueReport({ run: initialRunState(NOW), commandPrefix: '/converge' })).toContain('The queue is empty')
  })
})
