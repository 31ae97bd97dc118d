import { z } from 'zod'

// What an agent CLI said about one run (read by src/agents/agent-output.ts). Numbers it does not report are null.

export const AgentUsageSchema = z.object({
  input_tokens: z.number().nonnegative().nullable(),
  output_tokens: z.number().nonnegative().nullable(),
  turns: z.number().int().nonnegative().nullable(),
  cost_usd: z.number().nonnegative().nullable(),
})

export const AgentReportSchema = z.object({
  /** Which form the output had. */
  format: z.enum(['claude-json', 'codex-jsonl', 'gemini-json', 'text']),
  /** The agent's final message (cut to a few thousand characters). */
  message: z.string().nullable(),
  /** The error the agent reported (an API error, a turn limit …), null when it reported none. */
  error: z.string().nullable(),
  /** Tool uses the agent was refused, as `Tool: what` lines. */
  permission_denials: z.array(z.string()),
  usage: AgentUsageSchema,
})

export type AgentUsage = z.infer<typeof AgentUsageSchema>
export type AgentReport = z.infer<typeof AgentReportSchema>
