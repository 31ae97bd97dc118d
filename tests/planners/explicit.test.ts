import { describe, expect, it } from 'vitest'
import {
  analysePlannerOutput, choosePlanner, explicitPlan, findExplicitPlan, type IssueDocument,
} from '../../src/planners/index.js'
import { exampleIssue } from './issue-file.js'

const issue = (body: string): IssueDocument => ({ number: 42, title: 'Add a helper', body, labels: [] })
const planJson = (extra: Record<string, unknown> = {}) =>
  JSON.stringify({ description: 'Add it', tasks: [{ id: 'T1', title: 'Add x', action: 'Add' }], ...extra }, null, 2)
const fenced = (json: string, fence = '```json') => `${fence}\n${json}\n${fence.slice(0, 3)}\n`

describe('findExplicitPlan', () => {
  it('finds a ```json block holding an object with "tasks", and the line its JSON starts on', () => {
    const found = findExplicitPlan(`# Plan\n\nSome text.\n\n${fenced(planJson())}`)
    expect(found).toMatchObject({ found: true, line: 6, candidates: 1 })
    expect(found.found && JSON.parse(found.text)).toMatchObject({ description: 'Add it' })
  })

  it('accepts ~~~ fences and JSON in any case, and counts lines across CRLF', () => {
    expect(findExplicitPlan(`a\r\nb\r\n\r\n${fenced(planJson(), '~~~JSON')}`)).toMatchObject({ found: true, line: 5 })
  })

  it('ignores blocks in other languages, JSON that is not a plan, and blocks nested in lists', () => {
    const body = `${fenced(planJson(), '```jsonc')}\n${fenced('{"a": 1}')}\n${fenced('[{"tasks": []}]')}\n- item\n\n  \`\`\`json\n  {"tasks": []}\n  \`\`\`\n`
    expect(findExplicitPlan(body)).toEqual({ found: false })
  })

  it('uses the last of several plan blocks', () => {
    const body = `${fenced(planJson({ description: 'first' }))}\ntext\n\n${fenced(planJson({ description: 'second' }))}`
    const found = findExplicitPlan(body)
    expect(found).toMatchObject({ found: true, candidates: 2 })
    expect(found.found && JSON.parse(found.text).description).toBe('second')
  })

  it('counts a block that is not valid JSON but mentions "tasks", so the error is reported', () => {
    expect(findExplicitPlan(fenced('{ "tasks": [ }'))).toMatchObject({ found: true, line: 2 })
  })
})

describe('explicitPlan', () => {
  it('fills a missing id and issue_id and keeps everything else as written', () => {
    const output = explicitPlan(issue(fenced(planJson({ custom: 1 }))), undefined, 2)
    expect(output.raw).toEqual({ id: 'SOL-ISS-42-2', issue_id: 'ISS-42', ...JSON.parse(planJson({ custom: 1 })) })
    expect(output.notes).toEqual(['read the ```json plan block on line 2 of the issue body', 'filled in id SOL-ISS-42-2', 'filled in issue_id ISS-42'])
    expect(analysePlannerOutput(output).errors).toEqual([])
  })

  it('keeps ids that are present, and notes a plan that names another issue', () => {
    const output = explicitPlan(issue(fenced(planJson({ id: 'SOL-ISS-7-1', issue_id: 'ISS-7' }))))
    expect(output.raw).toMatchObject({ id: 'SOL-ISS-7-1', issue_id: 'ISS-7' })
    expect(output.notes).toEqual([
      'read the ```json plan block on line 2 of the issue body',
      "the plan's issue_id is ISS-7, not ISS-42 (this issue): kept as written",
      "the plan's id SOL-ISS-7-1 belongs to ISS-7, not ISS-42: kept as written",
    ])
  })

  it('reads the comment when one is given', () => {
    const output = explicitPlan(issue('no plan here'), `/converge plan\n\n${fenced(planJson())}`)
    expect(output.notes[0]).toBe('read the ```json plan block on line 4 of the comment')
    expect(output.raw).toMatchObject({ id: 'SOL-ISS-42-1' })
  })

  it('reports invalid JSON with its line and column in the issue, with no plan', () => {
    const output = explicitPlan(issue(`Intro\n\n\`\`\`json\n{\n  "tasks": [\n    { "id": "T1", }\n  ]\n}\n\`\`\`\n`))
    expect(output.raw).toBeUndefined()
    expect(output.error).toMatchObject({ code: 'invalid_json', path: '(root)' })
    expect(output.error!.message).toMatch(/^Not valid JSON at line 6, column 19 of the issue body \(line 3 of the ```json block\): /)
    const analysis = analysePlannerOutput(output)
    expect(analysis).toMatchObject({ gate: 'fail', errors: [output.error] })
  })

  it('answers a missing block with an error, not an exception', () => {
    const output = explicitPlan(issue('just words'))
    expect(output).toMatchObject({ planner: 'explicit', raw: undefined, error: { code: 'no_plan_block' } })
  })

  it('leaves a malformed plan to validation, which reports it by path', () => {
    const output = explicitPlan(issue(fenced('{"tasks": 3}')))
    expect(analysePlannerOutput(output).errors.map((e) => e.path)).toEqual(['description', 'tasks'])
  })

  it('examples/issues/explicit-plan.md passes the quality gate', async () => {
    const output = explicitPlan(await exampleIssue('explicit-plan.md'))
    expect(output.notes).toContain('filled in id SOL-ISS-44-1')
    const analysis = analysePlannerOutput(output)
    expect(analysis.errors).toEqual([])
    expect(analysis.gate).toBe('pass')
  })
})

describe('choosePlanner', () => {
  const commentPlan = `/converge plan\n\n${fenced(planJson({ description: 'from the comment' }))}`
  const bodyPlan = fenced(planJson({ description: 'from the body' }))

  it('auto: the comment\'s block first, then the body\'s, then the built-in planner', () => {
    expect(choosePlanner('auto', issue(bodyPlan), commentPlan).raw).toMatchObject({ description: 'from the comment' })
    expect(choosePlanner('auto', issue(bodyPlan), '/converge plan').raw).toMatchObject({ description: 'from the body' })
    const builtin = choosePlanner('auto', issue('- [ ] Add `src/x.ts`'), '/converge plan')
    expect(builtin.planner).toBe('builtin')
    expect(builtin.notes[0]).toBe('no ```json plan block in the comment or the issue body: used the built-in planner')
  })

  it('explicit: an error result when there is no block anywhere', () => {
    const output = choosePlanner('explicit', issue('- [ ] Add x'), '/converge plan')
    expect(output.error).toMatchObject({ code: 'no_plan_block', message: 'No ```json block holding a plan (an object with "tasks") in the comment or the issue body' })
  })

  it('builtin: ignores plan blocks and passes the options on', () => {
    const output = choosePlanner('builtin', issue(`- [ ] Add x\n\n${bodyPlan}`), commentPlan, { seq: 2, now: '2025-01-01T00:00:00Z' })
    expect(output.planner).toBe('builtin')
    expect(output.raw).toMatchObject({ id: 'SOL-ISS-42-2', created_at: '2025-01-01T00:00:00Z' })
  })
})
