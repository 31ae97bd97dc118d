import { z } from 'zod'
import { join } from 'node:path'
import { maxTurnsRefusal } from '../agents/presets.js'
import { ACTIONS_BOT_IDENTITY } from '../git/work-branch.js'
import type { RunObservers, RunRequest } from '../pipeline/run-request.js'
import { gitRemote, type Session } from './session.js'

const PERMISSIONS = ['read', 'triage', 'write', 'maintain', 'admin'] as const

const positiveInt = (name: string) =>
  z.string().trim().regex(/^\d+$/, `${name} must be a whole number`).transform(Number).refine((n) => n > 0, `${name} must be at least 1`)

const boolean = (name: string) =>
  z.string().trim().toLowerCase().refine((v) => v === 'true' || v === 'false', `${name} must be true or false`).transform((v) => v === 'true')

/** action.yml inputs, checked once at start-up so a typo fails the step with a precise message. */
export const ActionInputsSchema = z.object({
  'github-token': z.string().min(1, 'github-token is empty: pass ${{ github.token }} or a token with contents, issues, pull-requests and checks write'),
  command: z.string().trim(),
  'issue-number': z.string().trim().regex(/^\d*$/, 'issue-number must be a number').transform((v) => (v ? Number(v) : undefined)),
  'state-branch': z.string().trim().min(1).regex(/^(?!\/|.*\.\.|.*\/\/)[\w./-]+$/, 'state-branch must be a valid branch name'),
  planner: z.enum(['auto', 'explicit', 'builtin', 'command']),
  'planner-command': z.string(),
  'executor-command': z.string(),
  'max-parallel': positiveInt('max-parallel'),
  'max-iterations': positiveInt('max-iterations'),
  'max-retries': z.string().trim().regex(/^\d+$/, 'max-retries must be a whole number').transform(Number),
  'max-errors': positiveInt('max-errors'),
  'max-cost-usd': z.string().trim().regex(/^(\d+(\.\d+)?)?$/, 'max-cost-usd must be an amount of US dollars, like 5 or 0.25')
    .transform((v) => (v ? Number(v) : undefined)).refine((n) => n === undefined || n > 0, 'max-cost-usd must be more than 0'),
  'max-turns': z.string().trim().regex(/^\d*$/, 'max-turns must be a whole number').transform((v) => (v ? Number(v) : undefined))
    .refine((n) => n === undefined || n > 0, 'max-turns must be at least 1'),
  'on-failure': z.enum(['retry', 'skip', 'abort']),
  // Fractions allowed: `0.5` is 30 s.
  'task-timeout-minutes': z.string().trim().regex(/^\d+(\.\d+)?$/, 'task-timeout-minutes must be a number of minutes, like 15 or 0.5').transform(Number).refine((n) => n > 0, 'task-timeout-minutes must be more than 0'),
  'auto-approve': boolean('auto-approve'),
  'min-permission': z.enum(PERMISSIONS),
  'plan-label': z.string().trim().min(1),
  'execute-label': z.string().trim().min(1),
  'command-prefix': z.string().trim().min(1),
  'working-directory': z.string().trim().min(1),
  'allow-dirty': boolean('allow-dirty'),
  'setup-command': z.string().trim(),
  /** `off`: no baseline before each task's executor (checks too slow to run twice); every task's evidence is `not-measured`. */
  evidence: z.string().trim().toLowerCase().pipe(z.enum(['on', 'off'])),
  'dry-run': boolean('dry-run'),
  'persisted-credentials': z.enum(['remove', 'keep']),
  /** `sub-issues`: mirror an approved plan's tasks as sub-issues of the issue (src/action/publish-tasks.ts). */
  'publish-tasks': z.enum(['none', 'sub-issues']),
  /** `artifact`: write the board (src/board/) for a Pages artifact after the command (src/action/board.ts). */
  board: z.enum(['artifact', 'off']),
  'planner-env': z
    .string()
    .transform((v) => v.split(/[\s,]+/).filter(Boolean))
    .superRefine((names, ctx) => {
      for (const name of names) {
        if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) ctx.addIssue({ code: 'custom', message: `"${name}" is not a variable name` })
        else if (NEVER_FOR_PLANNER.test(name)) ctx.addIssue({ code: 'custom', message: `${name} is never given to a planner command (it holds the workflow's token or the runner's credentials)` })
      }
    }),
}).superRefine((inputs, ctx) => {
  // A turn limit that an agent can neither keep nor report is refused, not ignored.
  if (inputs['max-turns'] === undefined) return
  for (const name of ['executor-command', 'planner-command'] as const) {
    const refusal = maxTurnsRefusal(inputs[name])
    if (refusal) ctx.addIssue({ code: 'custom', path: ['max-turns'], message: `${refusal} (${name})` })
  }
})

/** What `planner-env` cannot list: the token, the action's inputs, the runner's credentials. */
const NEVER_FOR_PLANNER = /^(?:INPUT_|ACTIONS_)|^(?:GITHUB_TOKEN|GH_TOKEN|GH_ENTERPRISE_TOKEN|GITHUB_ENTERPRISE_TOKEN)$/i

export type ActionInputs = z.output<typeof ActionInputsSchema>
export type Permission = (typeof PERMISSIONS)[number]
export const INPUT_NAMES = Object.keys(ActionInputsSchema.shape) as Array<keyof typeof ActionInputsSchema.shape>

/**
 * Reads and validates every input through `getInput` (`@actions/core`'s, in the action). Returns every
 * problem at once rather than the first.
 */
export function readInputs(getInput: (name: string) => string): { ok: true; inputs: ActionInputs } | { ok: false; errors: string[] } {
  const raw = Object.fromEntries(INPUT_NAMES.map((name) => [name, getInput(name)]))
  const result = ActionInputsSchema.safeParse(raw)
  if (result.success) return { ok: true, inputs: result.data }
  return {
    ok: false,
    errors: result.error.issues.map((issue) => {
      const name = String(issue.path[0])
      return issue.code === 'invalid_value' ? `${name}: "${raw[name]}" is not one of ${issue.values.join(', ')}` : `${name}: ${issue.message}`
    }),
  }
}

/**
 * The run request of a workflow run (`pipeline/run-request.ts`): the one place the action's inputs and its
 * runner become a run's policy, workspace and observers.
 */
export function actionRunRequest(session: Session, observers: RunObservers = {}): RunRequest {
  const { inputs, ctx } = session
  const timeoutMs = inputs['task-timeout-minutes'] * 60_000
  return {
    policy: {
      executorCommand: inputs['executor-command'],
      maxParallel: inputs['max-parallel'],
      maxIterations: inputs['max-iterations'],
      onFailure: inputs['on-failure'],
      maxRetries: inputs['max-retries'],
      maxErrors: inputs['max-errors'],
      timeoutMs,
      measureEvidence: inputs.evidence !== 'off',
      maxTurns: inputs['max-turns'],
      maxCostUsd: inputs['max-cost-usd'],
      allowDirty: inputs['allow-dirty'],
    },
    workspace: {
      repoDir: session.repoDir,
      workRoot: join(session.tempDir, 'converge'),
      secrets: session.secrets,
      executorEnv: session.executorEnv,
      signal: session.signal,
      identity: ACTIONS_BOT_IDENTITY,
      remote: gitRemote(session),
      // One run of a plan at a time; a run that died holding it is taken over after the longest a task can go
      // without recording a result (each executor and command run within the timeout), or at once by its own re-run.
      holder: ctx.runUrl ? { run: ctx.runUrl, staleAfterMs: timeoutMs * (2 * inputs['max-iterations'] + 2) } : undefined,
      missingProgramFix: "Install the project's dependencies in a step before Converge, or give the command that does: the action's setup-command input (setup-command: npm ci)",
    },
    observers,
  }
}
