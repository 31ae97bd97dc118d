import { z } from 'zod'
import { CriterionCommandSchema } from './evidence.js'
import { canonicalTaskId, FOREIGN_TASK_ID } from './ids.js'
import { verificationFromEntries } from './verification.js'
import {
  EFFORTS, FILE_ACTIONS, PRIORITIES, TASK_ACTIONS, TASK_TYPES,
  lenientEnum, quoteInput, stringList,
  type Priority,
} from './enums.js'
import { inferAction, inferEffort, inferTaskType } from './task-inference.js'

// ---------------------------------------------------------------------------
// Canonical form: what Converge writes. Every reader variant normalises to it.
// ---------------------------------------------------------------------------

export const FileChangeSchema = z.object({
  path: z.string().min(1),
  action: z.enum(FILE_ACTIONS),
  target: z.string().nullable(),
  changes: z.array(z.string()),
})

export const ImplementationStepSchema = z.object({
  step: z.string(),
  description: z.string(),
  actions: z.array(z.string()),
})

export const TaskTestSchema = z.object({
  commands: z.array(z.string()),
  unit: z.array(z.string()),
  integration: z.array(z.string()),
})

export const ConvergenceSchema = z.object({
  criteria: z.array(z.string()),
  /** One entry per line: a command, `Run: <command>`, `Manual: <step>` or prose. */
  verification: z.string(),
  definition_of_done: z.string(),
  criteria_commands: z.array(CriterionCommandSchema).optional(),
})

export const TaskSourceSchema = z.looseObject({
  tool: z.string().optional(),
  session_id: z.string().optional(),
  original_id: z.string().optional(),
})

export const TaskSchema = z.object({
  id: z.string().regex(/^T\d+$/),
  title: z.string().min(1),
  action: z.enum(TASK_ACTIONS),
  type: z.enum(TASK_TYPES),
  priority: z.enum(PRIORITIES),
  effort: z.enum(EFFORTS),
  scope: z.string().optional(),
  description: z.string(),
  files: z.array(FileChangeSchema),
  implementation: z.array(ImplementationStepSchema),
  test: TaskTestSchema,
  convergence: ConvergenceSchema,
  depends_on: z.array(z.string()),
  estimated_minutes: z.number().positive().optional(),
  evidence: z.array(z.string()),
  source: TaskSourceSchema.optional(),
})

export type FileChange = z.infer<typeof FileChangeSchema>
export type ImplementationStep = z.infer<typeof ImplementationStepSchema>
export type Task = z.infer<typeof TaskSchema>

// ---------------------------------------------------------------------------
// Reader: accepts every variant the seed documents use.
// ---------------------------------------------------------------------------

const nonEmpty = z.string().trim().min(1)

/**
 * An optional enum field read leniently: a value outside the enum is left out, to be inferred, and the reader
 * reports it (`unknownEnumValues`) — CCW's agents write values of their own (`"action": "Notify"`).
 */
function softEnum<S extends z.ZodType<unknown, string>>(strict: S) {
  return z.string().transform((raw): z.output<S> | undefined => {
    const read = strict.safeParse(raw)
    return read.success ? read.data : undefined
  })
}

const FileActionEnum = lenientEnum(FILE_ACTIONS, { add: 'create', new: 'create', update: 'modify', edit: 'modify', remove: 'delete' })
const TaskActionEnum = lenientEnum(TASK_ACTIONS)
const TaskTypeEnum = lenientEnum(TASK_TYPES, {
  bugfix: 'fix', bug: 'fix', test: 'testing', tests: 'testing', feat: 'feature',
  // CCW's task types outside Converge's five.
  infrastructure: 'enhancement', infra: 'enhancement', docs: 'enhancement', documentation: 'enhancement',
  chore: 'enhancement', config: 'enhancement', performance: 'enhancement', security: 'fix',
  'test-gen': 'testing', 'test-fix': 'testing',
})
const EffortEnum = lenientEnum(EFFORTS, { s: 'small', m: 'medium', l: 'large', xlarge: 'large', xl: 'large', 'x-large': 'large' })
const PriorityWord = lenientEnum(PRIORITIES, { urgent: 'critical', p0: 'critical', p1: 'high', p2: 'medium', p3: 'low', normal: 'medium' })

/** An optional enum field whose unknown values are inferred, not refused: the enum it is read against, and its values. */
export interface SoftEnum {
  schema: z.ZodType<unknown, string>
  values: readonly string[]
}

/** The soft enum fields of a task, and of each of its `files[]`. */
export const SOFT_TASK_ENUMS: Record<'action' | 'type' | 'priority' | 'effort', SoftEnum> = {
  action: { schema: TaskActionEnum, values: TASK_ACTIONS },
  type: { schema: TaskTypeEnum, values: TASK_TYPES },
  priority: { schema: PriorityWord, values: PRIORITIES },
  effort: { schema: EffortEnum, values: EFFORTS },
}
export const SOFT_FILE_ENUMS: Record<'action', SoftEnum> = { action: { schema: FileActionEnum, values: FILE_ACTIONS } }

const FileChangeInput = z.object({
  path: nonEmpty,
  action: softEnum(FileActionEnum).optional(),
  target: z.string().nullable().optional(),
  changes: stringList().optional(),
  change: z.string().optional(),
})

/** `solution-schema.md`: `modification_points: [{ file, target, change }]`. */
const ModificationPointInput = z.object({
  file: nonEmpty,
  target: z.string().nullable().optional(),
  change: z.string().optional(),
  changes: stringList().optional(),
})

const ImplementationStepInput = z.union([
  z.string(),
  z.object({
    step: z.union([z.string(), z.number()]).optional(),
    description: z.string(),
    actions: stringList().optional(),
  }),
])

/** CCW writes `test.commands` also as an object of named commands (`{ "unit": "npm test" }`): its values, in order. */
const CommandsInput = z.union([stringList(), z.record(z.string(), z.string()).transform((o) => Object.values(o))])

const TestInput = z.object({
  commands: CommandsInput.optional(),
  unit: stringList().optional(),
  integration: stringList().optional(),
  /** Kept as manual verification steps, never run. */
  manual_checks: stringList().optional(),
})

const ConvergenceInput = z.object({
  criteria: stringList().optional(),
  criteria_commands: z.array(CriterionCommandSchema).optional(),
  verification: stringList().optional(),
  definition_of_done: z.string().optional(),
})

/** `solution-schema.md`: `acceptance: { criteria[], verification[] }`. */
const AcceptanceInput = z.union([
  z.object({
    criteria: stringList().optional(),
    verification: stringList().optional(),
    manual_checks: stringList().optional(),
  }),
  // CCW's lite-plan form: `acceptance: ["criterion", …]`.
  z.array(z.string()).transform((criteria) => ({ criteria, verification: undefined, manual_checks: undefined })),
])

/**
 * CCW's task-level `verification`: a list of checks (fix plans: `["npm test -- auth", …]`), or the lite plan's
 * object, whose manual checks are kept as manual steps and whose tests are the task's test requirements.
 */
const TaskVerificationInput = z.union([
  stringList().transform((entries) => ({ entries, unit: [], integration: [], manual_checks: [] })),
  z.object({
    unit_tests: stringList().optional(),
    integration_tests: stringList().optional(),
    manual_checks: stringList().optional(),
    success_metrics: stringList().optional(),
  }).transform((v) => ({ entries: [], unit: v.unit_tests ?? [], integration: v.integration_tests ?? [], manual_checks: v.manual_checks ?? [] })),
])

/** Evidence as CCW writes it: text, or objects (`{ "file": "src/a.ts:42", "note": "…" }`) kept as one line each. */
const EvidenceInput = z.union([
  z.string().transform((e) => (e.trim() ? [e] : [])),
  z.array(z.union([z.string(), z.record(z.string(), z.unknown()).transform(evidenceLine)])),
])

function evidenceLine(item: Record<string, unknown>): string {
  return Object.entries(item)
    .map(([key, value]) => `${key}: ${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join('; ')
}

/** A manual check as a verification entry: marked `Manual:` so it is listed and never run. */
function manualStep(check: string): string {
  return /^manual\s*:/i.test(check.trim()) ? check.trim() : `Manual: ${check.trim()}`
}

/** The task id, canonical when it is a spelling of `T<n>` (`TASK-001`, `T-006`), with the id as written. */
const TaskIdInput = z.string().meta({ description: 'T1, T2, … (TASK-001 is read as T1)' }).transform((raw, ctx) => {
  const written = raw.trim()
  const id = canonicalTaskId(raw) ?? (FOREIGN_TASK_ID.test(written) ? written : undefined)
  if (!id) {
    ctx.addIssue({ code: 'custom', message: `${quoteInput(raw)} is not a task id`, input: raw })
    return z.NEVER
  }
  return { id, written }
})

/** Numeric priorities count from 1 (most urgent), as in the issue queue of the seed documents. */
const PriorityInput = z.union([
  z.number().int().min(1).max(5).transform((n): Priority => (['critical', 'high', 'medium', 'low', 'low'] as const)[n - 1]!),
  softEnum(PriorityWord),
])

/** A dependency as written: a task id, or a bare number (Taskmaster's `dependencies: [1, 2]`) read as `T<n>`. */
const DependencyInput = z.union([z.string(), z.number().int().positive().transform((n) => `T${n}`)])

const TaskInputObject = z.looseObject({
  id: TaskIdInput,
  /** Required, or `name` in its place (CCW's roadmap layers: `{ "id": "L0", "name": "MVP", "goal": … }`). */
  title: nonEmpty.optional(),
  name: nonEmpty.optional(),
  goal: z.string().optional(),
  action: softEnum(TaskActionEnum).optional(),
  type: softEnum(TaskTypeEnum).optional(),
  priority: PriorityInput.optional(),
  effort: softEnum(EffortEnum).optional(),
  /** CCW allows `scope` as a list of paths or areas. */
  scope: z.union([z.string(), z.array(z.string()).transform((a) => a.join(', '))]).optional(),
  description: z.string().optional(),
  files: z.array(FileChangeInput).optional(),
  /** One file, as CCW's lite plans (`file`) and docs example (`file_path`) name it. */
  file: nonEmpty.optional(),
  file_path: nonEmpty.optional(),
  modification_points: z.array(ModificationPointInput).optional(),
  implementation: z.array(ImplementationStepInput).optional(),
  test: TestInput.optional(),
  convergence: ConvergenceInput.optional(),
  acceptance: AcceptanceInput.optional(),
  verification: TaskVerificationInput.optional(),
  depends_on: z.array(DependencyInput).optional(),
  /** CCW's docs example and Taskmaster write `dependencies`; CCW's task JSON nests `context.depends_on`. */
  dependencies: z.array(DependencyInput).optional(),
  /** CCW's older task JSON nests its dependencies, requirements and acceptance criteria in `context`. */
  context: z.looseObject({
    depends_on: z.array(DependencyInput).optional(),
    requirements: stringList().optional(),
    acceptance: stringList().optional(),
  }).optional(),
  /** Its `test_commands` (`{ "run_tests": "npm test" }`) are the task's test commands. */
  flow_control: z.looseObject({ test_commands: CommandsInput.optional() }).optional(),
  estimated_minutes: z.number().positive().optional(),
  evidence: EvidenceInput.optional(),
  source: TaskSourceSchema.optional(),
})

export const TaskInputSchema = TaskInputObject
  // Checked even when other fields are wrong (`when`), so that a missing title is reported with them.
  .superRefine((_t, ctx) => {
    ctx.addIssue({ code: 'invalid_type', expected: 'string', input: undefined, path: ['title'], message: 'Missing required field "title"' })
  }, { when: (payload) => isRecord(payload.value) && payload.value.title === undefined && payload.value.name === undefined })
  .transform((t) => normaliseTask({ ...t, title: (t.title ?? t.name)! }))

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

export type TaskInput = z.input<typeof TaskInputSchema>

/** Keys a task may carry; anything else is reported as an unknown field (with a suggestion). */
export const TASK_KEYS = Object.keys(TaskInputObject.shape)

type ParsedTask = z.output<typeof TaskInputObject> & { title: string }

function normaliseTask(t: ParsedTask): Task {
  const single = [t.file, t.file_path].flatMap((path) => (path ? [{ path }] : []))
  const files = mergeFiles([...(t.files ?? []), ...single], t.modification_points ?? [])
  const description = (t.description ?? t.goal ?? t.context?.requirements?.join('\n') ?? '').trim()
  const priority = t.priority ?? 'medium'
  const type = t.type ?? inferTaskType(`${t.title} ${description}`)
  return {
    id: t.id.id,
    title: t.title,
    action: t.action ?? inferAction(t.title, t.type),
    type,
    priority,
    effort: t.effort ?? inferEffort(priority, files.length),
    ...(t.scope !== undefined ? { scope: t.scope } : {}),
    description,
    files,
    implementation: (t.implementation ?? []).map((step, i) =>
      typeof step === 'string'
        ? { step: String(i + 1), description: step, actions: [] }
        : { step: String(step.step ?? i + 1), description: step.description, actions: step.actions ?? [] },
    ),
    test: {
      commands: unique([...(t.test?.commands ?? []), ...(t.flow_control?.test_commands ?? [])]),
      unit: unique([...(t.test?.unit ?? []), ...(t.verification?.unit ?? [])]),
      integration: unique([...(t.test?.integration ?? []), ...(t.verification?.integration ?? [])]),
    },
    convergence: {
      criteria: criteriaOf(t),
      verification: verificationFromEntries(unique([
        ...(t.convergence?.verification ?? []),
        ...(t.acceptance?.verification ?? []),
        ...(t.verification?.entries ?? []),
        ...[...(t.test?.manual_checks ?? []), ...(t.acceptance?.manual_checks ?? []), ...(t.verification?.manual_checks ?? [])].map(manualStep),
      ])),
      definition_of_done: t.convergence?.definition_of_done ?? '',
      ...(t.convergence?.criteria_commands?.length ? { criteria_commands: t.convergence.criteria_commands } : {}),
    },
    // Every way a plan states a dependency is read: a dependency is never dropped.
    depends_on: unique([...(t.depends_on ?? []), ...(t.dependencies ?? []), ...(t.context?.depends_on ?? [])]
      .map((d) => canonicalTaskId(d) ?? d)),
    ...(t.estimated_minutes !== undefined ? { estimated_minutes: t.estimated_minutes } : {}),
    evidence: t.evidence ?? [],
    ...(t.source !== undefined || t.id.written !== t.id.id
      ? { source: { ...t.source, ...(t.id.written !== t.id.id && !t.source?.original_id ? { original_id: t.id.written } : {}) } }
      : {}),
  }
}

/**
 * The task's criteria, wherever CCW writes them. A fix plan's task has only `verification` ("verification/test
 * criteria to confirm the fix works"): its checks are then the criteria too.
 */
function criteriaOf(t: ParsedTask): string[] {
  const stated = unique([...(t.convergence?.criteria ?? []), ...(t.acceptance?.criteria ?? []), ...(t.context?.acceptance ?? [])])
  return stated.length ? stated : unique(t.verification?.entries ?? [])
}

/**
 * Tasks with canonical ids: when any id is not `T<n>` (CCW's `IMPL-001`, `L0`…), every task is renumbered
 * `T1…Tn` in plan order, its dependencies follow, and the id it was written with is kept in
 * `source.original_id`. Duplicate ids are left as written, for the graph check to report.
 */
export function withCanonicalTaskIds(tasks: Task[]): Task[] {
  if (tasks.every((t) => /^T\d+$/.test(t.id))) return tasks
  if (new Set(tasks.map((t) => t.id)).size !== tasks.length) return tasks
  const renamed = new Map(tasks.map((t, i) => [t.id, `T${i + 1}`]))
  return tasks.map((t) => ({
    ...t,
    id: renamed.get(t.id)!,
    depends_on: t.depends_on.map((d) => renamed.get(d) ?? d),
    source: { ...t.source, original_id: t.source?.original_id ?? t.id },
  }))
}

type FileInput = z.output<typeof FileChangeInput>
type PointInput = z.output<typeof ModificationPointInput>

/** `files[]` and `modification_points[]` become one list, one entry per path, `change` folded into `changes`. */
function mergeFiles(files: FileInput[], points: PointInput[]): FileChange[] {
  const byPath = new Map<string, FileChange>()
  const add = (path: string, action: FileChange['action'] | undefined, target: string | null | undefined, changes: string[]) => {
    const existing = byPath.get(path)
    if (existing) {
      existing.changes = unique([...existing.changes, ...changes])
      existing.target ??= target ?? null
      if (action && action !== 'modify') existing.action = action
    } else {
      byPath.set(path, { path, action: action ?? 'modify', target: target ?? null, changes: unique(changes) })
    }
  }
  for (const f of files) add(f.path, f.action, f.target, [...(f.changes ?? []), ...(f.change ? [f.change] : [])])
  for (const p of points) add(p.file, 'modify', p.target, [...(p.changes ?? []), ...(p.change ? [p.change] : [])])
  return [...byPath.values()]
}

function unique(items: string[]): string[] {
  return [...new Set(items.map((s) => s.trim()).filter(Boolean))]
}
