import { readdirSync, readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { issueNumberFromFileName, type QualityGate } from '../../src/model/index.js'
import { analysePlanText, type PlanAnalysis } from '../../src/plan/analyse.js'
import { planFileText, type PlanFileText } from '../../src/plan/plan-file.js'
import { verificationEntries } from '../../src/model/verification.js'

/**
 * The CCW compatibility corpus (tests/fixtures/ccw-compat/, see its README.md): plans written by us after each
 * CCW schema, agent prompt and doc example, each variant and each once-dropped field, read by the same reader as
 * `converge validate` (the file's form, the issue from `--number` or the file name, then `analysePlanText`, one
 * line at a time for a `.jsonl`), each next to `<name>.expected.json`: the canonical result a careful engineer expects.
 */

const CORPUS = new URL('../fixtures/ccw-compat/', import.meta.url)

interface ExpectedTask {
  id: string
  /** The id the plan wrote, when it was not already `T<n>`. */
  original_id?: string
  title: string
  depends_on: string[]
  /** The commands that will run, in order. */
  commands: string[]
  /** Manual checks, listed and never run. */
  manual: string[]
}

interface ExpectedPlan {
  /** CCW's own schemas or docs accept this plan: it must validate with no error. */
  ccw_accepts: boolean
  issue?: string
  solution_id?: string
  /** The solution id as written; null when it was already canonical or absent. */
  original_id?: string | null
  gate: QualityGate
  tasks?: ExpectedTask[]
  waves?: string[][]
  /** Paths of fields whose unknown enum value was inferred (findings, never errors). Absent: none. */
  inferred?: string[]
  /** For rejected plans: every error, in order; `message` is a substring. */
  errors?: Array<{ code: string; path: string; message: string }>
}

interface Expected extends ExpectedPlan {
  /** The form the file is read as; default json (markdown for .md, jsonl for .jsonl). */
  form?: PlanFileText['form']
  /** `--number`, when the test passes one. */
  number?: number
  /** A .jsonl: one expectation per line. */
  lines?: ExpectedPlan[]
}

const files = readdirSync(CORPUS).filter((f) => f !== 'README.md' && !f.endsWith('.expected.json')).sort()
const expectedOf = (file: string): Expected =>
  JSON.parse(readFileSync(new URL(`${file.replace(/\.(jsonl?|md)$/, '')}.expected.json`, CORPUS), 'utf8'))

function defaultForm(file: string): PlanFileText['form'] {
  return file.endsWith('.jsonl') ? 'jsonl' : file.endsWith('.md') ? 'markdown' : 'json'
}

/** What the reader made of one plan, in the expectation's terms. */
function actual(analysis: PlanAnalysis, like: ExpectedPlan): ExpectedPlan {
  const solution = analysis.solution
  return {
    ccw_accepts: like.ccw_accepts,
    ...(like.issue !== undefined ? { issue: solution?.issue_id } : {}),
    ...(like.solution_id !== undefined ? { solution_id: solution?.id } : {}),
    ...(like.original_id !== undefined ? { original_id: solution?.original_id ?? null } : {}),
    gate: analysis.gate,
    ...(like.tasks !== undefined
      ? {
          tasks: solution?.tasks.map((t) => {
            const entries = verificationEntries(t)
            return {
              id: t.id,
              ...(t.source?.original_id !== undefined ? { original_id: t.source.original_id } : {}),
              title: t.title,
              depends_on: t.depends_on,
              commands: entries.flatMap((e) => (e.kind === 'command' ? [e.command!] : [])),
              manual: entries.flatMap((e) => (e.kind === 'manual' ? [e.text] : [])),
            }
          }),
        }
      : {}),
    ...(like.waves !== undefined ? { waves: analysis.dag?.waves } : {}),
    ...(like.inferred !== undefined || analysis.warnings.some((w) => w.rule === 'unknown-enum-value')
      ? { inferred: analysis.warnings.filter((w) => w.rule === 'unknown-enum-value').map((w) => w.path) }
      : {}),
    ...(like.errors !== undefined || analysis.errors.length
      ? {
          errors: analysis.errors.map((e, i) => ({
            code: e.code,
            path: e.path,
            // The expected substring, when the message holds it, so that a mismatch shows both in the diff.
            message: like.errors?.[i] && e.message.includes(like.errors[i]!.message) ? like.errors[i]!.message : e.message,
          })),
        }
      : {}),
  }
}

/** The raw tasks of a plan (a Taskmaster file's under its tag), to compare with what was read. */
function rawTasks(raw: Record<string, unknown>): Array<Record<string, unknown>> {
  if (Array.isArray(raw.tasks)) return raw.tasks
  const tagged = Object.values(raw).find((v) => typeof v === 'object' && v !== null && Array.isArray((v as { tasks?: unknown }).tasks))
  return (tagged as { tasks: Array<Record<string, unknown>> }).tasks
}

const commandList = (value: unknown): string[] =>
  Array.isArray(value) ? value.map(String) : typeof value === 'object' && value !== null ? Object.values(value).map(String) : typeof value === 'string' ? [value] : []

/**
 * The plan CCW wrote and the plan Converge read have the same tasks, the same dependencies (every way CCW
 * writes one, through the renumbering) and every command CCW lists.
 */
function expectSameTasks(text: string, analysis: PlanAnalysis) {
  const written = rawTasks(JSON.parse(text))
  const read = analysis.solution!.tasks
  expect(read).toHaveLength(written.length)
  const idOf = new Map(written.map((t, i) => [String(t.id), read[i]!.id]))
  written.forEach((task, i) => {
    const context = (task.context ?? {}) as Record<string, unknown>
    const deps = [task.depends_on, task.dependencies, context.depends_on].flatMap((d) => (Array.isArray(d) ? d : []))
    const mapped = deps.map((d) => idOf.get(String(d)) ?? `T${String(d).replace(/\D/g, '').replace(/^0+/, '')}`)
    expect([...read[i]!.depends_on].sort(), `${String(task.id)} depends on`).toEqual([...new Set(mapped)].sort())
    const test = (task.test ?? {}) as Record<string, unknown>
    const flow = (task.flow_control ?? {}) as Record<string, unknown>
    const commands = verificationEntries(read[i]!).flatMap((e) => (e.kind === 'command' ? [e.command] : []))
    for (const command of [...commandList(test.commands), ...commandList(flow.test_commands)])
      expect(commands, `${String(task.id)} runs ${command}`).toContain(command)
  })
}

describe('CCW compatibility corpus', () => {
  it('holds at least 23 plans, each with its expectation and a line in the README', () => {
    expect(files.length).toBeGreaterThanOrEqual(23)
    const readme = readFileSync(new URL('README.md', CORPUS), 'utf8')
    for (const file of files) {
      expect(() => expectedOf(file), file).not.toThrow()
      expect(readme, file).toContain(`\`${file}\``)
    }
  })

  it.each(files)('%s', (file) => {
    const expected = expectedOf(file)
    const text = readFileSync(new URL(file, CORPUS), 'utf8')
    const input = planFileText(text, file)
    expect(input.form).toBe(expected.form ?? defaultForm(file))
    if (input.form === 'markdown-without-plan') return
    const issue = expected.number ?? issueNumberFromFileName(file)

    const { form: _form, number: _number, lines, ...single } = expected
    const plans = input.form === 'jsonl'
      ? input.lines.map((line, i) => ({ text: line.text, want: lines![i]! }))
      : [{ text: input.text, want: single }]
    if (input.form === 'jsonl') expect(input.lines).toHaveLength(lines!.length)
    for (const { text: plan, want } of plans) {
      const analysis = analysePlanText(plan, issue)
      expect(actual(analysis, want)).toEqual(want)
      if (!want.ccw_accepts) continue
      expect(analysis.errors).toEqual([])
      expectSameTasks(plan, analysis)
    }
  })
})
