import { z } from 'zod'
import { ISSUE_ID } from './ids.js'

export const ISSUE_STATUSES = [
  'registered', 'planning', 'planned', 'queued', 'executing', 'completed', 'failed', 'paused',
] as const
export type IssueStatus = (typeof ISSUE_STATUSES)[number]

/** An earlier failure, fed back into the next planning attempt. */
export const FeedbackSchema = z.object({
  at: z.string(),
  source: z.enum(['validation', 'quality', 'execution', 'review']),
  message: z.string(),
})

export const IssueStateSchema = z.object({
  id: z.string().regex(ISSUE_ID),
  number: z.number().int().positive(),
  title: z.string(),
  status: z.enum(ISSUE_STATUSES),
  solution_id: z.string().nullable(),
  planned_at: z.string().nullable(),
  executed_at: z.string().nullable(),
  error: z.string().nullable(),
  // Fields below were added to the seed's IssueState; defaults let state written without them load.
  labels: z.array(z.string()).default([]),
  author: z.string().nullable().default(null),
  url: z.string().nullable().default(null),
  /** `sha256:` of the issue body the current plan was made from. */
  body_sha: z.string().nullable().default(null),
  feedback: z.array(FeedbackSchema).default([]),
  updated_at: z.string().nullable().default(null),
})

export type Feedback = z.infer<typeof FeedbackSchema>
export type IssueState = z.infer<typeof IssueStateSchema>
