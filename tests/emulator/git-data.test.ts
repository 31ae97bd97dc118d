import { execFile } from 'node:child_process'
import { createHash } from 'node:crypto'
import { promisify } from 'node:util'
import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import { startEmulator, type Emulator } from '../support/emulator/index.js'
import { api } from './http-client.js'

const run = promisify(execFile)

/** Asks the real git about the emulator's bare repository. */
async function git(gh: Emulator, ...args: string[]): Promise<string> {
  return (await run('git', [`--git-dir=${gh.repoDir}`, ...args])).stdout.trim()
}

let gh: Emulator
let base: string

beforeEach(async () => {
  gh = await startEmulator({ owner: 'octo-org', repo: 'demo', files: { 'README.md': '# demo\n', 'src/app.ts': 'export {}\n' } })
  base = (await gh.state.branchHead('main'))!
})

afterEach(async () => {
  gh.expectNoViolations()
  await gh.close()
})

const repo = '/repos/octo-org/demo'

describe('blob → tree → commit → ref', () => {
  test('objects created through the API are real git objects', async () => {
    const text = await api(gh, 'POST', `${repo}/git/blobs`, { body: { content: 'hello\n', encoding: 'utf-8' } })
    const binary = await api(gh, 'POST', `${repo}/git/blobs`, { body: { content: Buffer.from([0, 1, 2]).toString('base64'), encoding: 'base64' } })
    expect(text.status).toBe(201)
    expect(text.body.sha).toBe(createHash('sha1').update('blob 6\0hello\n').digest('hex'))
    expect(await git(gh, 'cat-file', '-p', text.body.sha)).toBe('hello')
    expect(await git(gh, 'cat-file', '-s', binary.body.sha)).toBe('3')

    const baseTree = (await api(gh, 'GET', `${repo}/git/commits/${base}`)).body.tree.sha
    const tree = await api(gh, 'POST', `${repo}/git/trees`, {
      body: {
        base_tree: baseTree,
        tree: [
          { path: 'docs/hello.txt', mode: '100644', type: 'blob', sha: text.body.sha },
          { path: 'bin/data', mode: '100644', type: 'blob', sha: binary.body.sha },
          { path: 'notes.md', mode: '100644', type: 'blob', content: '# notes\n' },
          { path: 'src/app.ts', mode: '100644', type: 'blob', sha: null },
        ],
      },
    })
    expect(tree.status).toBe(201)
    expect(tree.body.tree.map((entry: { path: string }) => entry.path)).toEqual(['README.md', 'bin', 'docs', 'notes.md'])
    expect(await git(gh, 'ls-tree', '-r', '--name-only', tree.body.sha)).toBe('README.md\nbin/data\ndocs/hello.txt\nnotes.md')

    const commit = await api(gh, 'POST', `${repo}/git/commits`, {
      body: {
        message: 'ISS-42: planned SOL-ISS-42-1 (3 tasks)',
        tree: tree.body.sha,
        parents: [base],
        author: { name: 'Converge', email: 'converge@example.com', date: '2024-05-01T12:00:00Z' },
      },
    })
    expect(commit.status).toBe(201)
    expect(commit.body).toMatchObject({
      tree: { sha: tree.body.sha },
      parents: [{ sha: base }],
      author: { name: 'Converge', email: 'converge@example.com', date: '2024-05-01T12:00:00Z' },
      message: 'ISS-42: planned SOL-ISS-42-1 (3 tasks)',
    })
    const raw = await git(gh, 'cat-file', '-p', commit.body.sha)
    expect(raw).toContain(`tree ${tree.body.sha}`)
    expect(raw).toContain(`parent ${base}`)
    expect(raw).toContain('author Converge <converge@example.com> 1714564800 +0000')

    const moved = await api(gh, 'PATCH', `${repo}/git/refs/heads/main`, { body: { sha: commit.body.sha } })
    expect(moved.body).toMatchObject({ ref: 'refs/heads/main', object: { sha: commit.body.sha, type: 'commit' } })
    expect(await git(gh, 'rev-parse', 'refs/heads/main')).toBe(commit.body.sha)
    expect(await gh.state.readFile('main', 'docs/hello.txt')).toBe('hello\n')
    expect(await gh.state.listFiles('main')).toEqual(['README.md', 'bin/data', 'docs/hello.txt', 'notes.md'])

    const fetchedBlob = await api(gh, 'GET', `${repo}/git/blobs/${text.body.sha}`)
    expect(Buffer.from(fetchedBlob.body.content, 'base64').toString()).toBe('hello\n')
    const recursive = await api(gh, 'GET', `${repo}/git/trees/main?recursive=1`)
    expect(recursive.body.tree.map((entry: { path: string }) => entry.path)).toContain('docs/hello.txt')
  })

  test('a non-forced ref update must be a fast-forward; force moves it anyway', async () => {
    const tree = (await api(gh, 'GET', `${repo}/git/commits/${base}`)).body.tree.sha
    const sibling = await api(gh, 'POST', `${repo}/git/commits`, { body: { message: 'sibling', tree, parents: [base] } })
    await gh.seed.commit({ files: { 'other.txt': 'moved on' } })
    const head = await gh.state.branchHead('main')

    const rejected = await api(gh, 'PATCH', `${repo}/git/refs/heads/main`, { body: { sha: sibling.body.sha } })
    expect(rejected.status).toBe(422)
    expect(rejected.body.message).toBe('Update is not a fast forward')
    expect(await gh.state.branchHead('main')).toBe(head)

    const forced = await api(gh, 'PATCH', `${repo}/git/refs/heads/main`, { body: { sha: sibling.body.sha, force: true } })
    expect(forced.status).toBe(200)
    expect(await gh.state.branchHead('main')).toBe(sibling.body.sha)
  })

  test('an orphan commit (no parents) on a new ref: the shape of the state branch', async () => {
    const tree = await api(gh, 'POST', `${repo}/git/trees`, {
      body: { tree: [{ path: '.converge/state.json', mode: '100644', type: 'blob', content: '{"status":"pending"}\n' }] },
    })
    const commit = await api(gh, 'POST', `${repo}/git/commits`, { body: { message: 'Initialise state', tree: tree.body.sha, parents: [] } })
    expect(commit.body.parents).toEqual([])
    const created = await api(gh, 'POST', `${repo}/git/refs`, { body: { ref: 'refs/heads/converge/state', sha: commit.body.sha } })
    expect(created.status).toBe(201)
    expect(await gh.state.listFiles('converge/state')).toEqual(['.converge/state.json'])
    expect(await git(gh, 'rev-list', '--count', 'converge/state')).toBe('1')

    const fetched = await api(gh, 'GET', `${repo}/git/ref/heads/converge/state`)
    expect(fetched.body.object.sha).toBe(commit.body.sha)
    const again = await api(gh, 'POST', `${repo}/git/refs`, { body: { ref: 'refs/heads/converge/state', sha: base } })
    expect(again).toMatchObject({ status: 422, body: { message: 'Reference already exists' } })
    const matching = await api(gh, 'GET', `${repo}/git/matching-refs/heads/converge`)
    expect(matching.body.map((ref: { ref: string }) => ref.ref)).toEqual(['refs/heads/converge/state'])
  })

  test('refs that do not exist and objects that do not exist', async () => {
    expect((await api(gh, 'GET', `${repo}/git/ref/heads/missing`)).status).toBe(404)
    const update = await api(gh, 'PATCH', `${repo}/git/refs/heads/missing`, { body: { sha: base } })
    expect(update.body.message).toBe('Reference does not exist')
    expect((await api(gh, 'DELETE', `${repo}/git/refs/heads/missing`)).body.message).toBe('Reference does not exist')
    const unknown = await api(gh, 'POST', `${repo}/git/refs`, { body: { ref: 'refs/heads/x', sha: 'f'.repeat(40) } })
    expect(unknown.body.message).toBe('Object does not exist')
    const badName = await api(gh, 'POST', `${repo}/git/refs`, { body: { ref: 'heads/x', sha: base } })
    expect(badName.status).toBe(422)
    expect((await api(gh, 'GET', `${repo}/git/commits/${'e'.repeat(40)}`)).status).toBe(404)
  })
})

describe('repository, branches and contents', () => {
  test('GET /repos and GET /branches/{branch}', async () => {
    expect((await api(gh, 'GET', repo)).body).toMatchObject({ full_name: 'octo-org/demo', default_branch: 'main' })
    await gh.seed.branch('feature/x')
    const branch = await api(gh, 'GET', `${repo}/branches/feature/x`)
    expect(branch.body).toMatchObject({ name: 'feature/x', commit: { sha: base }, protected: false })
    expect(await api(gh, 'GET', `${repo}/branches/nope`)).toMatchObject({ status: 404, body: { message: 'Branch not found' } })
  })

  test('contents: read a file, update it with its sha, 409 on a stale sha, 422 without one', async () => {
    const file = await api(gh, 'GET', `${repo}/contents/README.md`)
    expect(file.body).toMatchObject({ type: 'file', path: 'README.md', encoding: 'base64' })
    expect(Buffer.from(file.body.content, 'base64').toString()).toBe('# demo\n')

    const content = Buffer.from('# changed\n').toString('base64')
    const noSha = await api(gh, 'PUT', `${repo}/contents/README.md`, { body: { message: 'edit', content } })
    expect(noSha.status).toBe(422)
    const stale = await api(gh, 'PUT', `${repo}/contents/README.md`, { body: { message: 'edit', content, sha: 'a'.repeat(40) } })
    expect(stale.status).toBe(409)
    expect(await gh.state.readFile('main', 'README.md')).toBe('# demo\n')

    const updated = await api(gh, 'PUT', `${repo}/contents/README.md`, { body: { message: 'edit', content, sha: file.body.sha } })
    expect(updated.status).toBe(200)
    expect(updated.body.commit.parents[0].sha).toBe(base)
    expect(await gh.state.readFile('main', 'README.md')).toBe('# changed\n')

    const created = await api(gh, 'PUT', `${repo}/contents/docs/new.md`, { body: { message: 'add', content } })
    expect(created.status).toBe(201)
    const dir = await api(gh, 'GET', `${repo}/contents/docs`)
    expect(dir.body).toMatchObject([{ type: 'file', path: 'docs/new.md' }])
    expect((await api(gh, 'GET', `${repo}/contents/nope.md`)).status).toBe(404)
  })
})
