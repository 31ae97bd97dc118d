import { z } from 'zod'
import { ISSUE_STATUSES } from './issue-state.js'

export const QueueItemSchema = z.object({
  item_id: z.string().regex(/^S-\d+$/),
  issue_id: z.string(),
  solution_id: z.string(),
  status: z.enum(['pending', 'executing', 'completed', 'failed']),
})

/** What `state.json` keeps of each issue; the full IssueState lives in `issues/<n>/issue.json`. */
export const IssueSummarySchema = z.object({
  number: z.number().int().positive(),
  title: z.string(),
  status: z.enum(ISSUE_STATUSES),
  solution_id: z.string().nullable(),
  updated_at: z.string(),
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
export type IssueSummary = z.infer<typeof IssueSummarySchema>
export type Transition = z.infer<typeof TransitionSchema>
export type RunState = z.infer<typeof RunStateSchema>
export type SyncCursor = z.infer<typeof SyncCursorSchema>
