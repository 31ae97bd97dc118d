import { z } from 'zod'
import { FOREIGN_ISSUE_ID, FOREIGN_SOLUTION_ID, ISSUE_ID, issueId, SOLUTION_ID, solutionIdIssue } from './ids.js'
import { LEVELS, lenientEnum, stringList } from './enums.js'
import { TaskInputSchema, TaskSchema, withCanonicalTaskIds, type Task } from './task.js'

export const AnalysisSchema = z.object({
  risk: z.enum(LEVELS).optional(),
  /** Why the risk is what it is, when the planner read it from the issue ("changes data in production: …"): the gate says it. */
  risk_reason: z.string().optional(),
  impact: z.enum(LEVELS).optional(),
  complexity: z.enum(LEVELS).optional(),
})

export const ExplorationContextSchema = z.object({
  relevant_files: z.array(z.string()),
  patterns: z.array(z.string()),
  integration_points: z.array(z.string()),
  constraints: z.array(z.string()),
})

/**
 * Bound to the plan's content hash: a plan edited after approval no longer matches and is not executed. The rest
 * says what gave it, so that a push to the state branch cannot make one up: the issue and plan it was given on, and
 * the event, which a workflow run checks against GitHub before it executes (the comment, by its id).
 */
export const ApprovalSchema = z.object({
  plan_hash: z.string().regex(/^sha256:[0-9a-f]{64}$/),
  approved_by: z.string(),
  approved_at: z.string(),
  /** The issue it was given for: a plan copied to another issue is not approved there. */
  issue: z.number().int().positive().optional(),
  plan_id: z.string().optional(),
  /** `comment`: a `/converge approve` comment; `workflow`: the `command` input of a run; `auto-approve`; `cli`. */
  via: z.enum(['comment', 'workflow', 'auto-approve', 'cli']).optional(),
  /** The approving comment, and the issue or pull request it is on. */
  comment_id: z.number().int().positive().optional(),
  comment_on: z.number().int().positive().optional(),
  /** The workflow run (`via: workflow`, `auto-approve`), by its URL. */
  run: z.string().optional(),
})

/** What of the issue a planner left out of the plan, and why; `work`: work or criteria the plan should have carried. */
export const LeftOutSchema = z.object({ item: z.string(), reason: z.string(), work: z.boolean().optional() })

export const SolutionSchema = z.object({
  id: z.string().regex(SOLUTION_ID),
  /** The id the plan was written with, when it was not `SOL-ISS-<n>-<n>` (CCW's `SOL-GH-123-a7x9`). */
  original_id: z.string().optional(),
  issue_id: z.string().regex(ISSUE_ID),
  description: z.string().min(1),
  strategy_type: z.string(),
  created_at: z.string().optional(),
  tasks: z.array(TaskSchema).min(1),
  /** Work the issue already marks done (ticked `[x]` items): shown with the plan, never run. */
  already_done: z.array(z.string()).optional(),
  /** What of the issue the planner left out, with the reason (the built-in planner, issue 38). */
  left_out: z.array(LeftOutSchema).optional(),
  exploration_context: ExplorationContextSchema.optional(),
  analysis: AnalysisSchema.optional(),
  score: z.number().min(0).max(1).optional(),
  is_bound: z.boolean(),
  approval: ApprovalSchema.optional(),
})

export type Analysis = z.infer<typeof AnalysisSchema>
export type Approval = z.infer<typeof ApprovalSchema>
export type Solution = z.infer<typeof SolutionSchema>

// ---------------------------------------------------------------------------
// Reader
// ---------------------------------------------------------------------------

const RelevantFileInput = z.union([z.string(), z.looseObject({ path: z.string() }).transform((f) => f.path)])

const ExplorationContextInput = z.looseObject({
  relevant_files: z.array(RelevantFileInput).optional(),
  patterns: stringList().optional(),
  integration_points: stringList().optional(),
  constraints: stringList().optional(),
})

const AnalysisInput = z.object({
  risk: lenientEnum(LEVELS).optional(),
  risk_reason: z.string().optional(),
  impact: lenientEnum(LEVELS).optional(),
  complexity: lenientEnum(LEVELS).optional(),
})

export const SolutionInputSchema = z
  .looseObject({
    /** Optional: CCW's lite plans (`plan.json`) have none; the id is then `SOL-ISS-<issue>-1`. */
    id: z.string().regex(FOREIGN_SOLUTION_ID, 'expected SOL-ISS-<issue>-<seq>, e.g. SOL-ISS-42-1 (or CCW\'s SOL-GH-42-a7x9)').optional(),
    /** Optional: CCW carries the issue in the solution id (and the file name), not in a field. */
    issue_id: z.union([z.string().regex(FOREIGN_ISSUE_ID, 'expected ISS-<issue number>, e.g. ISS-42'), z.number().int().positive()]).optional(),
    description: z.string().trim().min(1),
    /** CCW's lite and fix plans summarise in `summary`: the reader takes it as the description when there is none. */
    summary: z.string().trim().min(1).optional(),
    strategy_type: z.string().trim().min(1).optional(),
    created_at: z.string().optional(),
    tasks: z.array(TaskInputSchema).min(1),
    already_done: stringList().optional(),
    left_out: z.array(LeftOutSchema).optional(),
    exploration_context: ExplorationContextInput.optional(),
    analysis: AnalysisInput.optional(),
    score: z.number().min(0).max(1).optional(),
    is_bound: z.boolean().optional(),
    approval: ApprovalSchema.optional(),
  })
  .transform(
    (s): Solution => ({
      ...canonicalSolutionIds(s.id, s.issue_id),
      description: s.description,
      strategy_type: s.strategy_type?.toLowerCase() ?? inferStrategy(s.tasks),
      ...(s.created_at !== undefined ? { created_at: s.created_at } : {}),
      tasks: withCanonicalTaskIds(s.tasks),
      ...(s.already_done?.length ? { already_done: s.already_done } : {}),
      ...(s.left_out?.length ? { left_out: s.left_out } : {}),
      ...(s.exploration_context
        ? {
            exploration_context: {
              relevant_files: s.exploration_context.relevant_files ?? [],
              patterns: s.exploration_context.patterns ?? [],
              integration_points: s.exploration_context.integration_points ?? [],
              constraints: s.exploration_context.constraints ?? [],
            },
          }
        : {}),
      ...(s.analysis ? { analysis: s.analysis } : {}),
      ...(s.score !== undefined ? { score: s.score } : {}),
      is_bound: s.is_bound ?? false,
      ...(s.approval ? { approval: s.approval } : {}),
    }),
  )

/**
 * `SOL-ISS-<n>-<n>` and `ISS-<n>` from any accepted spelling. The issue comes from `issue_id` (which the reader
 * fills from the surrounding issue or the file name when it knows them), else from the id; a plan that names
 * no issue Converge can use (validated on its own) is read for issue 0.
 */
function canonicalSolutionIds(id: string | undefined, issue: string | number | undefined): Pick<Solution, 'id' | 'issue_id' | 'original_id'> {
  const issueNumber = issue !== undefined ? Number(FOREIGN_ISSUE_ID.exec(String(issue))![1]) : (id === undefined ? undefined : solutionIdIssue(id)) ?? 0
  const issue_id = typeof issue === 'string' && ISSUE_ID.test(issue) ? issue : issueId(issueNumber)
  if (id === undefined) return { id: `SOL-ISS-${issueNumber}-1`, issue_id }
  if (SOLUTION_ID.test(id)) return { id, issue_id }
  return { id: `SOL-ISS-${issueNumber}-1`, original_id: id, issue_id }
}

export type SolutionInput = z.input<typeof SolutionInputSchema>

export const SOLUTION_KEYS = Object.keys(SolutionInputSchema.in.shape)

function inferStrategy(tasks: Task[]): string {
  const counts = new Map<string, number>()
  for (const t of tasks) counts.set(t.type, (counts.get(t.type) ?? 0) + 1)
  const [top] = [...counts.entries()].sort((a, b) => b[1] - a[1])
  switch (top?.[0]) {
    case 'fix': return 'bugfix'
    case 'refactor': return 'refactor'
    case 'testing': return 'testing'
    default: return 'feature'
  }
}
