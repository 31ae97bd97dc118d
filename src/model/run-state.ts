import { z } from 'zod'
import { PRIORITIES } from './enums.js'
import { ISSUE_STATUSES } from './issue-state.js'

export const QUEUE_ITEM_STATUSES = ['pending', 'executing', 'completed', 'failed'] as const

/**
 * One solution in the repository's queue (seed `issue-run-state-schema.md`: `item_id` S-n, `issue_id`,
 * `solution_id`, `status`). The optional fields were added by Converge (after CCW's issue queue): where the
 * item is and why. Queues written before them still load.
 */
export const QueueItemSchema = z.object({
  item_id: z.string().regex(/^S-\d+$/),
  issue_id: z.string(),
  solution_id: z.string(),
  status: z.enum(QUEUE_ITEM_STATUSES),
  /**
   * Execution group: `P<k>` runs its items in parallel (they share no file with any other queued
   * solution), `S<k>` runs its items one after the other, in `position` order (they share files).
   */
  group: z.string().regex(/^[PS]\d+$/).optional(),
  /** 1-based place in its group. */
  position: z.number().int().positive().optional(),
  /** Why the item is where it is, e.g. "after S-2: both change src/auth.ts". */
  reason: z.string().optional(),
  /** Items that must finish first (the previous item of a sequential group). */
  depends_on: z.array(z.string().regex(/^S-\d+$/)).optional(),
  /** Paths the solution's tasks change (sorted). */
  files: z.array(z.string()).optional(),
  /** The priority the item was ordered by, and where it came from: an issue label, or the solution's most urgent task. */
  priority: z.enum(PRIORITIES).optional(),
  priority_source: z.enum(['label', 'tasks']).optional(),
})

/** What `state.json` keeps of each issue; the full IssueState lives in `issues/<n>/issue.json`. */
export const IssueSummarySchema = z.object({
  number: z.number().int().positive(),
  title: z.string(),
  status: z.enum(ISSUE_STATUSES),
  solution_id: z.string().nullable(),
  updated_at: z.string(),
  /** From a priority label of the issue (`priority: high`, `P1`, `critical`…); absent when it has none. */
  priority: z.enum(PRIORITIES).optional(),
  /** Closed on GitHub (Converge keeps the record of issues it worked on); such issues are not queued. */
  closed: z.boolean().optional(),
  /** The issues it is blocked by (from its `issue.json`), so the queue orders it after them. */
  blocked_by: z.array(z.number().int().positive()).optional(),
})

export const TransitionSchema = z.object({
  at: z.string(),
  issue_id: z.string().optional(),
  from: z.string().nullable(),
  to: z.string(),
  note: z.string().optional(),
})

export const RunErrorSchema = z.object({
  at: z.string(),
  issue_id: z.string().optional(),
  message: z.string(),
})

/** Where the last `sync` stopped, so the next one asks GitHub only for what changed (SPEC §5 `sync`). */
export const SyncCursorSchema = z.object({
  /** The label filter the cursor belongs to; another filter starts over. */
  label: z.string().nullable(),
  /** Latest `updated_at` seen: the next sync lists issues updated since then. */
  since: z.string(),
  /** ETag of the first page of that listing: GitHub answers 304 (free) while nothing changed. */
  etag: z.string().nullable(),
  synced_at: z.string(),
})

export const RunStateSchema = z.object({
  version: z.literal(1).default(1),
  status: z.enum(['pending', 'running', 'completed']),
  phase: z.enum(['init', 'listing', 'planning', 'executing', 'complete']),
  issues: z.record(z.string(), IssueSummarySchema),
  queue: z.array(QueueItemSchema),
  /** When `sync` last rebuilt the queue (absent before the first rebuild). */
  queue_built_at: z.string().optional(),
  context: z.object({
    total_issues: z.number().int().nonnegative(),
    completed_count: z.number().int().nonnegative(),
    failed_count: z.number().int().nonnegative(),
  }),
  errors: z.array(RunErrorSchema),
  /** Most recent transitions last; capped so the file stays small on long-lived repositories. */
  history: z.array(TransitionSchema).default([]),
  sync: SyncCursorSchema.nullable().default(null),
  created_at: z.string(),
  updated_at: z.string(),
})

export type QueueItem = z.infer<typeof QueueItemSchema>
export type QueueItemStatus = (typeof QUEUE_ITEM_STATUSES)[number]
export type IssueSummary = z.infer<typeof IssueSummarySchema>
export type Transition = z.infer<typeof TransitionSchema>
export type RunState = z.infer<typeof RunStateSchema>
export type SyncCursor = z.infer<typeof SyncCursorSchema>
