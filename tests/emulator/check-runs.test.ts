import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import { startEmulator, type Emulator } from '../support/emulator/index.js'
import { api } from './http-client.js'

let gh: Emulator
let sha: string

beforeEach(async () => {
  gh = await startEmulator({ owner: 'octo-org', repo: 'demo', files: { 'src/app.ts': 'export {}\n' } })
  sha = (await gh.state.branchHead('main'))!
})

afterEach(() => gh.close())

const annotations = (count: number, from = 1) =>
  Array.from({ length: count }, (_, index) => ({
    path: 'src/app.ts',
    start_line: from + index,
    end_line: from + index,
    annotation_level: 'failure',
    message: `error ${from + index}`,
  }))

const createRun = (body: Record<string, unknown>) =>
  api(gh, 'POST', '/repos/octo-org/demo/check-runs', { body: { name: 'converge / ISS-42', head_sha: sha, ...body } })

describe('check runs', () => {
  test('in progress, then completed with a conclusion; annotations are appended across updates', async () => {
    const created = await createRun({ status: 'in_progress', output: { title: 'Running', summary: '1/3 tasks', annotations: annotations(50) } })
    expect(created.status).toBe(201)
    expect(created.body).toMatchObject({ status: 'in_progress', conclusion: null, head_sha: sha, output: { annotations_count: 50 } })
    const id = created.body.id as number

    const done = await api(gh, 'PATCH', `/repos/octo-org/demo/check-runs/${id}`, {
      body: { conclusion: 'failure', output: { title: 'Failed', summary: '2/3 tasks', annotations: annotations(30, 51) } },
    })
    expect(done.body).toMatchObject({ status: 'completed', conclusion: 'failure', output: { title: 'Failed', annotations_count: 80 } })
    expect(done.body.completed_at).toMatch(/Z$/)

    const listed = await api(gh, 'GET', `/repos/octo-org/demo/check-runs/${id}/annotations?per_page=100`)
    expect(listed.body.map((a: { start_line: number }) => a.start_line)).toEqual(Array.from({ length: 80 }, (_, i) => i + 1))
    expect(gh.state.checkRun(id)!.annotations).toHaveLength(80)
    gh.expectNoViolations()
  })

  test('51 annotations in one request are rejected (422) and nothing is stored', async () => {
    const answer = await createRun({ output: { title: 't', summary: 's', annotations: annotations(51) } })
    expect(answer.status).toBe(422)
    expect(answer.body.message).toContain('must NOT have more than 50 items')
    expect(gh.state.checkRuns()).toEqual([])
    expect(gh.violations).toMatchObject([{ kind: 'invalid-body', operationId: 'checks/create' }])
  })

  test('an update with 51 annotations is rejected too and appends nothing', async () => {
    const { body } = await createRun({ output: { title: 't', summary: 's', annotations: annotations(10) } })
    const answer = await api(gh, 'PATCH', `/repos/octo-org/demo/check-runs/${body.id}`, {
      body: { output: { title: 't', summary: 's', annotations: annotations(51) } },
    })
    expect(answer.status).toBe(422)
    expect(gh.state.checkRun(body.id)!.annotations).toHaveLength(10)
  })

  test('a summary longer than 65535 characters and an unknown annotation level are rejected', async () => {
    const long = await createRun({ output: { title: 't', summary: 'x'.repeat(65536) } })
    expect(long.status).toBe(422)
    const level = await createRun({ output: { title: 't', summary: 's', annotations: [{ ...annotations(1)[0], annotation_level: 'error' }] } })
    expect(level.status).toBe(422)
    expect((await createRun({ output: { title: 't', summary: 'x'.repeat(65535) } })).status).toBe(201)
    expect(gh.violations.map((v) => v.kind)).toEqual(['invalid-body', 'invalid-body'])
  })

  test('completed needs a conclusion; an unknown head sha is rejected', async () => {
    expect((await createRun({ status: 'completed' })).status).toBe(422)
    const unknown = await api(gh, 'POST', '/repos/octo-org/demo/check-runs', { body: { name: 'x', head_sha: 'f'.repeat(40) } })
    expect(unknown).toMatchObject({ status: 422, body: { message: `No commit found for SHA: ${'f'.repeat(40)}` } })
    expect(gh.state.checkRuns()).toEqual([])
  })

  test('list for a ref (sha or branch), latest run per name by default', async () => {
    await createRun({ conclusion: 'neutral' })
    const latest = await createRun({ status: 'queued' })
    await createRun({ name: 'other', status: 'queued' })
    const bySha = await api(gh, 'GET', `/repos/octo-org/demo/commits/${sha}/check-runs?check_name=converge%20/%20ISS-42`)
    expect(bySha.body).toMatchObject({ total_count: 1, check_runs: [{ id: latest.body.id }] })
    const byBranch = await api(gh, 'GET', '/repos/octo-org/demo/commits/main/check-runs?filter=all')
    expect(byBranch.body.total_count).toBe(3)
    const fetched = await api(gh, 'GET', `/repos/octo-org/demo/check-runs/${latest.body.id}`)
    expect(fetched.body).toMatchObject({ name: 'converge / ISS-42', status: 'queued', app: { slug: 'github-actions' } })
    gh.expectNoViolations()
  })
})
