import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import type { Solution } from '../../src/model/index.js'
import { analysePlan } from '../../src/plan/analyse.js'
import { canonicalJson, planHash, sha256 } from '../../src/plan/hash.js'

function wellFormed(): Solution {
  const text = readFileSync(new URL('../fixtures/plans/well-formed.json', import.meta.url), 'utf8')
  return analysePlan(JSON.parse(text)).solution!
}

/** The same object with keys inserted in reverse order, at every level. */
function reverseKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reverseKeys)
  if (typeof value !== 'object' || value === null) return value
  return Object.fromEntries(Object.entries(value).reverse().map(([k, v]) => [k, reverseKeys(v)]))
}

describe('sha256', () => {
  it('gives sha256:<hex> of the UTF-8 text', () => {
    expect(sha256('')).toBe('sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855')
    expect(sha256('abc')).toBe('sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad')
    expect(sha256('功能正常')).toMatch(/^sha256:[0-9a-f]{64}$/)
    expect(sha256('功能正常')).not.toBe(sha256('功能正确'))
  })
})

describe('canonicalJson', () => {
  it('sorts keys at every level, keeps array order and drops undefined members', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: undefined } })).toBe('{"a":{"d":[3,{"y":2,"z":1}]},"b":1}')
    expect(canonicalJson([undefined, null, 'x'])).toBe('[null,null,"x"]')
  })

  it('sorts keys that look like array indexes as text too, and keeps a `__proto__` key as a key', () => {
    // An object lists index-like keys first and in numeric order whatever the order they were set in.
    expect(canonicalJson({ b: { 10: 'ten', 9: 'nine', x: 1 }, a: 0 })).toBe('{"a":0,"b":{"10":"ten","9":"nine","x":1}}')
    expect(canonicalJson(JSON.parse('{"z":1,"__proto__":{"y":2,"x":1}}'))).toBe('{"__proto__":{"x":1,"y":2},"z":1}')
  })

  it('writes what JSON cannot hold as null, and nothing for an undefined member', () => {
    expect(canonicalJson({ f: () => 1, u: undefined, a: [() => 1, Symbol('s'), NaN, -0] })).toBe('{"a":[null,null,null,0],"f":null}')
    expect(canonicalJson(undefined)).toBe('null')
  })
})

describe('planHash', () => {
  it('is a sha256 and does not depend on key order', () => {
    const plan = wellFormed()
    expect(planHash(plan)).toMatch(/^sha256:[0-9a-f]{64}$/)
    expect(planHash(reverseKeys(plan) as Solution)).toBe(planHash(plan))
    expect(JSON.stringify(reverseKeys(plan))).not.toBe(JSON.stringify(plan))
  })

  it('ignores the approval, the score and the creation time', () => {
    const plan = wellFormed()
    const hash = planHash(plan)
    const approved: Solution = {
      ...plan,
      score: 0.42,
      created_at: '2025-01-29T11:00:00Z',
      approval: { plan_hash: hash, approved_by: 'octocat', approved_at: '2025-01-29T12:00:00Z' },
    }
    expect(planHash(approved)).toBe(hash)
  })

  it('changes on any edit of the work', () => {
    const plan = wellFormed()
    const hash = planHash(plan)
    const [t1, t2] = plan.tasks
    const edits: Array<[string, Solution]> = [
      ['description', { ...plan, description: `${plan.description}.` }],
      ['is_bound', { ...plan, is_bound: !plan.is_bound }],
      ['analysis', { ...plan, analysis: { ...plan.analysis, risk: 'high' } }],
      ['task title', { ...plan, tasks: [{ ...t1!, title: 'Fix token refresh!' }, t2!] }],
      ['task order', { ...plan, tasks: [t2!, t1!] }],
      ['a command', { ...plan, tasks: [t1!, { ...t2!, test: { ...t2!.test, commands: ['npm test -- t3.test.ts'] } }] }],
      ['a criterion', { ...plan, tasks: [t1!, { ...t2!, convergence: { ...t2!.convergence, criteria: [] } }] }],
      ['a dependency', { ...plan, tasks: [t1!, { ...t2!, depends_on: [] }] }],
      ['a file change', { ...plan, tasks: [{ ...t1!, files: [{ ...t1!.files[0]!, changes: ['Something else'] }] }, t2!] }],
      ['an added task', { ...plan, tasks: [t1!, t2!, { ...t2!, id: 'T3' }] }],
    ]
    const hashes = edits.map(([, edited]) => planHash(edited))
    for (const [i, [what]] of edits.entries()) expect(hashes[i], what).not.toBe(hash)
    expect(new Set(hashes).size).toBe(edits.length)
  })
})
