/**
 * Converge's own planners read an issue of at most GitHub's 65,536 characters: a longer one (a local issue file can
 * be) is refused with the limit named before the built-in planner, whose time grows faster than its input, reads it.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { readIssueFile } from '../../src/cli/issue-file.js'
import { pipelinePlan } from '../../src/pipeline/plan-command.js'
import { LocalGitStore } from '../../src/state/local-git-store.js'
import { bareRepo, type TempRepo } from '../support/temp-repos.js'

describe('an issue longer than GitHub allows', () => {
  let repo: TempRepo
  let dir: string
  beforeEach(async () => {
    repo = await bareRepo()
    dir = await mkdtemp(join(tmpdir(), 'converge-issue-length-'))
  })
  afterEach(async () => {
    await repo.cleanup()
    await rm(dir, { recursive: true, force: true })
  })

  it('is refused by the built-in planner with the limit named, at once', async () => {
    const store = new LocalGitStore({ repoDir: repo.dir })
    const body = '- [ ] Change `src/a.ts` so that it answers\n'.repeat(2_000)
    const started = Date.now()
    const { output, result } = await pipelinePlan(store, { number: 3, title: 'Long', labels: [], body }, 'builtin', '2026-01-01T00:00:00Z')
    expect(Date.now() - started).toBeLessThan(20_000) // a hang guard: refused before planning (about 1 s on a loaded machine)
    expect(output.error?.message).toBe(`the issue is ${body.length.toLocaleString('en-US')} characters; Converge plans issues of at most 65,536 characters (GitHub's limit for an issue or a comment)`)
    expect(result.issueState.status).toBe('failed')
  })

  it('a local issue file of more than 65,536 characters’ worth of bytes is not read', async () => {
    const file = join(dir, '42.md')
    await writeFile(file, `# Huge\n${'x'.repeat(300_000)}`)
    await expect(readIssueFile(file)).rejects.toThrow(/42\.md is 300,007 bytes; an issue holds at most 65,536 characters \(GitHub's limit\)/)
  })
})
