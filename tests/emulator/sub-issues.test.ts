import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import { startEmulator, type Emulator } from '../support/emulator/index.js'
import { api } from './http-client.js'

let gh: Emulator
const repo = '/repos/octo-org/demo'
const numbers = (body: Array<{ number: number }>) => body.map((issue) => issue.number)
const idOf = (n: number) => gh.state.issue(n)!.id

beforeEach(async () => {
  gh = await startEmulator({ owner: 'octo-org', repo: 'demo' })
  for (const n of [1, 2, 3, 4]) gh.seed.issue({ number: n, title: `issue ${n}` })
})

afterEach(async () => {
  gh.expectNoViolations()
  await gh.close()
})

describe('sub-issues', () => {
  test('added by id, listed in order, with the parent and the summary on the issue', async () => {
    const added = await api(gh, 'POST', `${repo}/issues/1/sub_issues`, { body: { sub_issue_id: idOf(2) } })
    expect(added.status).toBe(201)
    expect(added.body).toMatchObject({ number: 1, sub_issues_summary: { total: 1, completed: 0, percent_completed: 0 } })
    await api(gh, 'POST', `${repo}/issues/1/sub_issues`, { body: { sub_issue_id: idOf(3) } })
    await api(gh, 'PATCH', `${repo}/issues/3`, { body: { state: 'closed' } })

    expect(numbers((await api(gh, 'GET', `${repo}/issues/1/sub_issues`)).body)).toEqual([2, 3])
    expect((await api(gh, 'GET', `${repo}/issues/1`)).body.sub_issues_summary).toEqual({ total: 2, completed: 1, percent_completed: 50 })
    const parent = await api(gh, 'GET', `${repo}/issues/2/parent`)
    expect(parent.body.number).toBe(1)
    expect((await api(gh, 'GET', `${repo}/issues/2`)).body.parent_issue_url).toBe(`${gh.url}${repo}/issues/1`)
    expect((await api(gh, 'GET', `${repo}/issues/1/parent`)).status).toBe(404)
  })

  test('a sub-issue has one parent unless replace_parent; no self or ancestor; unknown ids are not found', async () => {
    gh.seed.subIssue(1, 2)
    const second = await api(gh, 'POST', `${repo}/issues/3/sub_issues`, { body: { sub_issue_id: idOf(2) } })
    expect(second.status).toBe(422)
    expect(second.body.errors[0].message).toBe('Sub issue may only have one parent')
    const replaced = await api(gh, 'POST', `${repo}/issues/3/sub_issues`, { body: { sub_issue_id: idOf(2), replace_parent: true } })
    expect(replaced.status).toBe(201)
    expect(gh.state.subIssues(1)).toEqual([])
    expect(gh.state.subIssues(3)).toEqual([2])

    expect((await api(gh, 'POST', `${repo}/issues/2/sub_issues`, { body: { sub_issue_id: idOf(2) } })).status).toBe(422)
    const cycle = await api(gh, 'POST', `${repo}/issues/2/sub_issues`, { body: { sub_issue_id: idOf(3) } })
    expect(cycle.status).toBe(422)
    expect(cycle.body.errors[0].message).toContain('ancestor')
    // The body takes the database id, not the number.
    expect((await api(gh, 'POST', `${repo}/issues/1/sub_issues`, { body: { sub_issue_id: 2 } })).status).toBe(404)
    expect((await api(gh, 'GET', `${repo}/issues/99/sub_issues`)).status).toBe(404)
  })

  test('at most 100 sub-issues under one parent', async () => {
    for (let n = 10; n < 111; n++) gh.seed.issue({ number: n, title: `child ${n}` })
    for (let n = 10; n < 110; n++) gh.seed.subIssue(1, n)
    const over = await api(gh, 'POST', `${repo}/issues/1/sub_issues`, { body: { sub_issue_id: idOf(110) } })
    expect(over.status).toBe(422)
    expect(over.body.errors[0].message).toContain('100')
    const page = await api(gh, 'GET', `${repo}/issues/1/sub_issues?per_page=100`)
    expect(page.body).toHaveLength(100)
  })

  test('removed, and reprioritized after or before another sub-issue', async () => {
    for (const n of [2, 3, 4]) gh.seed.subIssue(1, n)
    const moved = await api(gh, 'PATCH', `${repo}/issues/1/sub_issues/priority`, { body: { sub_issue_id: idOf(4), before_id: idOf(2) } })
    expect(moved.status).toBe(200)
    expect(gh.state.subIssues(1)).toEqual([4, 2, 3])
    await api(gh, 'PATCH', `${repo}/issues/1/sub_issues/priority`, { body: { sub_issue_id: idOf(4), after_id: idOf(3) } })
    expect(gh.state.subIssues(1)).toEqual([2, 3, 4])
    const both = await api(gh, 'PATCH', `${repo}/issues/1/sub_issues/priority`, { body: { sub_issue_id: idOf(4) } })
    expect(both.status).toBe(422)

    const removed = await api(gh, 'DELETE', `${repo}/issues/1/sub_issue`, { body: { sub_issue_id: idOf(3) } })
    expect(removed.status).toBe(200)
    expect(gh.state.subIssues(1)).toEqual([2, 4])
    expect((await api(gh, 'DELETE', `${repo}/issues/1/sub_issue`, { body: { sub_issue_id: idOf(3) } })).status).toBe(404)
  })

  test('a token without the issues permission gets 403', async () => {
    gh.seed.token('reader-token', 'reader')
    gh.seed.permission('reader', 'read')
    const refused = await api(gh, 'POST', `${repo}/issues/1/sub_issues`, { body: { sub_issue_id: idOf(2) }, token: 'reader-token' })
    expect(refused.status).toBe(403)
    expect(refused.body.message).toBe('Resource not accessible by integration')
    expect(gh.state.subIssues(1)).toEqual([])
  })
})

describe('dependencies', () => {
  test('blocked_by added by id, listed both ways, counted on the issue, removed by id', async () => {
    const added = await api(gh, 'POST', `${repo}/issues/3/dependencies/blocked_by`, { body: { issue_id: idOf(1) } })
    expect(added.status).toBe(201)
    expect(added.body.number).toBe(3)
    await api(gh, 'POST', `${repo}/issues/3/dependencies/blocked_by`, { body: { issue_id: idOf(2) } })
    await api(gh, 'PATCH', `${repo}/issues/1`, { body: { state: 'closed' } })

    expect(numbers((await api(gh, 'GET', `${repo}/issues/3/dependencies/blocked_by`)).body)).toEqual([1, 2])
    expect(numbers((await api(gh, 'GET', `${repo}/issues/1/dependencies/blocking`)).body)).toEqual([3])
    expect((await api(gh, 'GET', `${repo}/issues/3`)).body.issue_dependencies_summary).toEqual({
      blocked_by: 1, blocking: 0, total_blocked_by: 2, total_blocking: 0,
    })

    const removed = await api(gh, 'DELETE', `${repo}/issues/3/dependencies/blocked_by/${idOf(1)}`)
    expect(removed.status).toBe(200)
    expect(gh.state.blockedBy(3)).toEqual([2])
    expect((await api(gh, 'DELETE', `${repo}/issues/3/dependencies/blocked_by/${idOf(1)}`)).status).toBe(404)
  })

  test('no duplicate, no self, no cycle', async () => {
    gh.seed.blockedBy(2, 1)
    gh.seed.blockedBy(3, 2)
    const again = await api(gh, 'POST', `${repo}/issues/2/dependencies/blocked_by`, { body: { issue_id: idOf(1) } })
    expect(again.status).toBe(422)
    expect(again.body.errors[0].code).toBe('already_exists')
    expect((await api(gh, 'POST', `${repo}/issues/2/dependencies/blocked_by`, { body: { issue_id: idOf(2) } })).status).toBe(422)
    const cycle = await api(gh, 'POST', `${repo}/issues/1/dependencies/blocked_by`, { body: { issue_id: idOf(3) } })
    expect(cycle.status).toBe(422)
    expect(cycle.body.errors[0].message).toContain('cycle')
    expect(gh.state.blockedBy(1)).toEqual([])
  })
})
