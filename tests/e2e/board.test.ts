import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startEmulator, type Emulator } from '../support/emulator/index.js'
import { issueLabeledEvent, workflowDispatchEvent } from '../support/events.js'
import { disposeRuns, runAction } from '../support/runner.js'

const HOSTILE = '<img src=x onerror=alert(1)> Fix the greeting'

describe('board: artifact (dist/index.js against the API emulator)', () => {
  let gh: Emulator
  beforeEach(async () => {
    gh = await startEmulator({ owner: 'octo-org', repo: 'demo', files: { 'README.md': '# demo\n' } })
    gh.seed.user({ login: 'alice' })
    gh.seed.permission('alice', 'write')
    gh.seed.issue({ number: 7, title: HOSTILE, body: '- [ ] Write `hello.txt` saying hello', labels: ['converge:plan'], user: 'alice' })
  })
  afterEach(async () => {
    await disposeRuns()
    try { gh.expectNoViolations() } finally { await gh.close() }
  })

  it('writes the board after the command and on a run with no command, names it in the job summary and in board-path', async () => {
    const planned = await runAction({ gh, event: issueLabeledEvent({ gh, issue: 7, label: 'converge:plan', sender: 'alice' }), inputs: { board: 'artifact' } })
    expect(planned.errors).toEqual([])
    expect(planned.outputs.status).toBe('planned')
    const folder = planned.outputs['board-path']!
    expect(folder).toMatch(/converge-board$/)
    expect(planned.summary).toContain(`**Board**: the board of \`converge/state\``)
    expect(planned.summary).toContain('(1 issue,')
    const page = await readFile(join(folder, 'index.html'), 'utf8')
    expect(page).toContain('&lt;img src=x onerror=alert(1)&gt; Fix the greeting')
    expect(page).not.toContain('<img')
    const data = JSON.parse(await readFile(join(folder, 'board.json'), 'utf8'))
    expect(data.issues).toMatchObject([{ number: 7, title: HOSTILE, status: 'planned', links: { issue: expect.stringMatching(/\/octo-org\/demo\/issues\/7$/) } }])

    // A scheduled run has no command: with board: artifact it makes the board rather than a "nothing to do".
    const scheduled = await runAction({ gh, event: workflowDispatchEvent({ gh, sender: 'alice' }), inputs: { board: 'artifact' } })
    expect(scheduled.exitCode).toBe(0)
    expect(scheduled.notices).toEqual([])
    expect(scheduled.outputs['board-path']).toMatch(/converge-board$/)
    expect(scheduled.summary).toContain('**Board**')

    const off = await runAction({ gh, event: workflowDispatchEvent({ gh, sender: 'alice' }) })
    expect(off.outputs['board-path']).toBeUndefined()
    expect(off.notices).toEqual([expect.stringContaining('nothing to do')])
  })
})
