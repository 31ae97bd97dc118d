import { describe, expect, it } from 'vitest'
import { taskIssueBody, taskMarker } from '../../src/action/publish-tasks.js'

describe('a task mirrored as a sub-issue', () => {
  it('starts with its marker and carries the plan text defused: no mention notifies, no HTML, no block opens', () => {
    const body = taskIssueBody(7, { id: 'SOL-ISS-7-1' }, {
      id: 'T2',
      description: 'Ask @alice first\n# not a heading\n<img src=x onerror=alert(1)>',
      convergence: { criteria: ['cc @org/team when done', '```sh'], verification: '', definition_of_done: '' },
    })
    expect(body.split('\n')[0]).toBe(taskMarker(7, 'T2'))
    expect(body).not.toMatch(/@alice|@org/)
    expect(body).toContain('Ask @\u200balice first')
    expect(body).toContain('\\# not a heading')
    expect(body).toContain('&lt;img src=x onerror=alert(1)&gt;')
    expect(body).toContain('- [ ] cc @\u200borg/team when done')
    expect(body).toContain('- [ ] \\```sh')
  })
})
