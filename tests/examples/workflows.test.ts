import { readdirSync, readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'

const DIR = new URL('../../examples/workflows/', import.meta.url)
const files = readdirSync(DIR).filter((f) => f.endsWith('.yml'))
const action = parse(readFileSync(new URL('../../action.yml', import.meta.url), 'utf8')) as { inputs: Record<string, unknown> }

interface Step { uses?: string; run?: string; with?: Record<string, unknown>; env?: Record<string, string> }
interface Workflow { permissions?: unknown; jobs: Record<string, { permissions?: Record<string, string>; steps: Step[] }> }

describe.each(files)('examples/workflows/%s', (file) => {
  const text = readFileSync(new URL(file, DIR), 'utf8')
  const workflow = parse(text) as Workflow

  it('grants nothing by default and only named scopes to its jobs', () => {
    expect(workflow.permissions).toEqual({})
    for (const job of Object.values(workflow.jobs)) {
      expect(job.permissions).toBeTypeOf('object')
      // Pages: only a job that does nothing but actions/deploy-pages gets to deploy, and nothing else.
      const deploys = job.steps.length === 1 && job.steps[0]!.uses?.startsWith('actions/deploy-pages@')
      if (deploys) expect(job.permissions).toEqual({ pages: 'write', 'id-token': 'write' })
      else for (const [scope, level] of Object.entries(job.permissions!)) {
        expect(['contents', 'issues', 'pull-requests', 'checks'], scope).toContain(scope)
        expect(['read', 'write']).toContain(level)
      }
    }
  })

  it('puts no event text into a shell: ${{ github.event.* }} never appears in run:', () => {
    for (const job of Object.values(workflow.jobs))
      for (const step of job.steps) if (step.run) expect(step.run).not.toMatch(/\$\{\{[^}]*github\.event/)
  })

  it('uses the Converge action, once per job at most, with inputs it declares', () => {
    const perJob = Object.values(workflow.jobs).map((j) => j.steps.filter((s) => s.uses?.startsWith('converge-action/converge@')))
    for (const steps of perJob) expect(steps.length).toBeLessThanOrEqual(1)
    const steps = perJob.flat()
    expect(steps.length).toBeGreaterThanOrEqual(1)
    for (const step of steps) for (const input of Object.keys(step.with ?? {})) expect(Object.keys(action.inputs)).toContain(input)
  })
})
