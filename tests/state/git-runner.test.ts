import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { GitError, runGit, runGitBytes } from '../../src/git/git.js'
import { readFiles } from '../../src/git/read-files.js'
import { resolveRef } from '../../src/git/refs.js'
import { writeTree } from '../../src/git/write-tree.js'
import { type TempRepo, bareRepo } from '../support/temp-repos.js'

describe('runGit', () => {
  let repo: TempRepo

  beforeEach(async () => {
    repo = await bareRepo()
  })
  afterEach(async () => {
    vi.unstubAllEnvs()
    await repo.cleanup()
  })

  it('rejects with a GitError carrying the command, the exit code and the trimmed stderr', async () => {
    const failure = runGit(['rev-parse', '--verify', 'no-such-ref'], { cwd: repo.dir })
    await expect(failure).rejects.toBeInstanceOf(GitError)
    await expect(failure).rejects.toMatchObject({
      command: 'git rev-parse --verify no-such-ref',
      exitCode: 128,
      stderr: 'fatal: Needed a single revision',
    })
  })

  it('passes arguments to git as they are, never through a shell', async () => {
    const value = 'a b; $(touch pwned) `touch pwned` | * "\' \\'
    const { stdout } = await runGit(['-c', `test.value=${value}`, 'config', 'test.value'], { cwd: repo.dir })
    expect(stdout).toBe(`${value}\n`)
    expect(existsSync(join(repo.dir, 'pwned'))).toBe(false)
  })

  it('feeds input on stdin, as text or bytes', async () => {
    const fromText = await runGit(['hash-object', '--stdin'], { cwd: repo.dir, input: 'hello\n' })
    const fromBytes = await runGitBytes(['hash-object', '--stdin'], { cwd: repo.dir, input: Buffer.from('hello\n') })
    expect(fromText.stdout).toBe('ce013625030ba8dba906f756967f9e9ca394464a\n')
    expect(fromBytes.stdout.toString()).toBe(fromText.stdout)
  })

  it('works in the repository of cwd even when inherited variables point git elsewhere', async () => {
    vi.stubEnv('GIT_DIR', '/nonexistent/.git')
    vi.stubEnv('GIT_INDEX_FILE', '/nonexistent/index')
    const { stdout } = await runGit(['rev-parse', '--is-bare-repository'], { cwd: repo.dir })
    expect(stdout.trim()).toBe('true')
  })

  it('reports a missing git binary as a GitError', async () => {
    vi.stubEnv('PATH', '/nonexistent')
    await expect(runGit(['--version'], { cwd: repo.dir })).rejects.toMatchObject({ exitCode: null })
  })
})

describe('git plumbing helpers', () => {
  let repo: TempRepo

  beforeEach(async () => {
    repo = await bareRepo()
  })
  afterEach(async () => {
    await repo.cleanup()
  })

  it('resolveRef gives null for a missing ref and the commit for an existing one', async () => {
    expect(await resolveRef(repo.dir, 'refs/heads/missing')).toBeNull()
    const tree = await writeTree(repo.dir, null, { 'a.txt': 'a' })
    const commit = await repo.git('commit-tree', tree, '-m', 'c')
    await repo.git('update-ref', 'refs/heads/present', commit)
    expect(await resolveRef(repo.dir, 'refs/heads/present')).toBe(commit)
  })

  it('writeTree and readFiles round-trip text and tell files from directories and missing paths', async () => {
    const tree = await writeTree(repo.dir, null, { 'dir/ü.txt': 'ü✓\n', 'empty.txt': '', 'dir/sub/x': 'x' })
    const commit = await repo.git('commit-tree', tree, '-m', 'c')
    const files = await readFiles(repo.dir, commit, ['dir/ü.txt', 'empty.txt', 'dir/sub', 'nope', 'dir/sub/x'])
    expect([...files]).toEqual([
      ['dir/ü.txt', 'ü✓\n'],
      ['empty.txt', ''],
      ['dir/sub', undefined],
      ['nope', undefined],
      ['dir/sub/x', 'x'],
    ])
  })
})
