import { z } from 'zod'
import { ExecutionRecordSchema } from './execution.js'
import { IssueStateSchema } from './issue-state.js'
import { LoopStateSchema } from './loop-state.js'
import { QualityReportSchema } from './quality.js'
import { RunStateSchema } from './run-state.js'
import { SolutionInputSchema, SolutionSchema } from './solution.js'

/**
 * JSON Schemas generated from the zod schemas (the single source of truth), keyed by file name.
 * `solution.schema.json` is the canonical form Converge writes and asks agents for;
 * `solution-input.schema.json` is everything Converge reads (acceptance, modification_points, TASK-001, …).
 */
export function jsonSchemas(): Record<string, Record<string, unknown>> {
  const output = (schema: z.ZodType, title: string) => document(z.toJSONSchema(schema, { io: 'output' }), title)
  return {
    'solution.schema.json': output(SolutionSchema, 'Converge solution (canonical form)'),
    'solution-input.schema.json': document(
      z.toJSONSchema(SolutionInputSchema, { io: 'input' }),
      'Converge solution (every accepted variant)',
    ),
    'issue-state.schema.json': output(IssueStateSchema, 'Converge issue state'),
    'run-state.schema.json': output(RunStateSchema, 'Converge run state'),
    'execution.schema.json': output(ExecutionRecordSchema, 'Converge execution results'),
    'loop-state.schema.json': output(LoopStateSchema, 'Converge loop state'),
    'quality-report.schema.json': output(QualityReportSchema, 'Converge plan quality report'),
  }
}

function document(schema: Record<string, unknown>, title: string): Record<string, unknown> {
  const { $schema, ...rest } = schema
  return { $schema, title, ...rest }
}
