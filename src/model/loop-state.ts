import { z } from 'zod'

// `loop-state-schema.md`: the develop → validate → debug loop of one issue's execution.

export const LOOP_STATUSES = ['created', 'running', 'paused', 'completed', 'failed'] as const
export type LoopStatus = (typeof LOOP_STATUSES)[number]

export const DevelopTaskSchema = z.object({
  id: z.string(),
  description: z.string(),
  status: z.enum(['pending', 'in_progress', 'completed', 'failed']),
  // The seed's initial example leaves these out of a task that has not started.
  tool: z.string().default('executor'),
  mode: z.enum(['analysis', 'write']).default('write'),
  files_changed: z.array(z.string()).default([]),
  created_at: z.string().nullable().default(null),
  completed_at: z.string().nullable().default(null),
})

export const HypothesisSchema = z.object({
  id: z.string(),
  description: z.string(),
  testable_condition: z.string(),
  logging_point: z.string(),
  evidence_criteria: z.object({ confirm: z.string(), reject: z.string() }),
  likelihood: z.number(),
  status: z.enum(['pending', 'confirmed', 'rejected', 'inconclusive']),
  evidence: z.record(z.string(), z.unknown()).nullable(),
  verdict_reason: z.string().nullable(),
})

export const TestResultSchema = z.object({
  test_name: z.string(),
  suite: z.string(),
  status: z.enum(['passed', 'failed', 'skipped']),
  duration_ms: z.number().nonnegative(),
  error_message: z.string().nullable(),
  stack_trace: z.string().nullable(),
})

export const SkillStateSchema = z.object({
  current_action: z.enum(['init', 'develop', 'debug', 'validate', 'complete', 'paused']).nullable(),
  last_action: z.string().nullable(),
  completed_actions: z.array(z.string()),
  mode: z.enum(['interactive', 'auto']),
  develop: z.object({
    total: z.number().int().nonnegative(),
    completed: z.number().int().nonnegative(),
    current_task: z.string().nullable().optional(),
    tasks: z.array(DevelopTaskSchema),
    last_progress_at: z.string().nullable(),
  }),
  debug: z.object({
    active_bug: z.string().nullable().optional(),
    hypotheses_count: z.number().int().nonnegative(),
    hypotheses: z.array(HypothesisSchema),
    confirmed_hypothesis: z.string().nullable(),
    iteration: z.number().int().nonnegative(),
    last_analysis_at: z.string().nullable(),
  }),
  validate: z.object({
    pass_rate: z.number().min(0).max(100),
    coverage: z.number().min(0).max(100),
    test_results: z.array(TestResultSchema),
    passed: z.boolean(),
    failed_tests: z.array(z.string()),
    last_run_at: z.string().nullable(),
  }),
  errors: z.array(z.object({ action: z.string(), message: z.string(), timestamp: z.string() })),
})

export const LoopStateSchema = z.object({
  loop_id: z.string(),
  title: z.string(),
  description: z.string(),
  max_iterations: z.number().int().positive(),
  status: z.enum(LOOP_STATUSES),
  current_iteration: z.number().int().nonnegative(),
  created_at: z.string(),
  updated_at: z.string(),
  completed_at: z.string().optional(),
  failure_reason: z.string().optional(),
  skill_state: SkillStateSchema.optional(),
})

export type DevelopTask = z.infer<typeof DevelopTaskSchema>
export type TestResult = z.infer<typeof TestResultSchema>
export type SkillState = z.infer<typeof SkillStateSchema>
export type LoopState = z.infer<typeof LoopStateSchema>
