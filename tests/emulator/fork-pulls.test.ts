import { writeFile } from 'node:fs/promises'
import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import { startEmulator, type Emulator } from '../support/emulator/index.js'
import { GitClient } from './git-client.js'
import { api } from './http-client.js'

let gh: Emulator
let client: GitClient

beforeEach(async () => {
  gh = await startEmulator({ owner: 'octo-org', repo: 'demo', files: { 'README.md': '# demo\n' } })
  client = await GitClient.create()
})

afterEach(async () => {
  gh.expectNoViolations()
  await gh.close()
  await client.remove()
})

const repo = '/repos/octo-org/demo'

/** The refs of the emulator's bare repository, as `ref → sha`. */
async function bareRefs(): Promise<Record<string, string>> {
  const output = await client.ok(['--git-dir', gh.repoDir, 'for-each-ref', '--format=%(refname) %(objectname)'])
  return Object.fromEntries(output.split('\n').map((line) => line.split(' ') as [string, string]))
}

describe('a pull request from a fork', () => {
  test('head.repo is the fork; the head commit is only under refs/pull/<n>/head', async () => {
    const main = (await gh.state.branchHead('main'))!
    const seeded = await gh.seed.pullRequest({
      number: 7,
      title: 'Fix typo',
      head: { ref: 'patch-1' },
      base: { ref: 'main' },
      fork: { owner: 'contributor' },
      files: { 'README.md': '# demo!\n', 'docs/new.md': 'new\n' },
      message: 'Fix the typo',
    })
    const head = seeded.pull!.headSha
    expect(seeded.pull!.headRepoOwner).toBe('contributor')
    expect(await bareRefs()).toEqual({ 'refs/heads/main': main, 'refs/pull/7/head': head })
    expect((await gh.state.commits(head)).map((c) => c.message.trim())).toEqual(['Fix the typo', 'Initial commit'])

    const pull = await api(gh, 'GET', `${repo}/pulls/7`)
    expect(pull.status).toBe(200)
    expect(pull.body.user.login).toBe('contributor')
    expect(pull.body.head).toMatchObject({
      label: 'contributor:patch-1',
      ref: 'patch-1',
      sha: head,
      user: { login: 'contributor' },
      repo: {
        full_name: 'contributor/demo',
        name: 'demo',
        fork: true,
        owner: { login: 'contributor', type: 'User' },
        url: `${gh.url}/repos/contributor/demo`,
        html_url: 'https://github.com/contributor/demo',
        clone_url: 'https://github.com/contributor/demo.git',
        permissions: { push: false, pull: true },
      },
    })
    expect(pull.body.head.repo.id).not.toBe(pull.body.base.repo.id)
    expect(pull.body.base).toMatchObject({ label: 'octo-org:main', sha: main, repo: { full_name: 'octo-org/demo', fork: false } })
    expect(await gh.state.readFile(head, 'docs/new.md')).toBe('new\n')
  })

  test('pulls/list answers it (valid against the response schema) and filters by owner:branch', async () => {
    await gh.seed.branch('patch-1')
    await gh.seed.pullRequest({ number: 1, title: 'Same repo', head: { ref: 'patch-1' }, base: { ref: 'main' }, files: { 'a.txt': 'a\n' } })
    await gh.seed.pullRequest({ number: 2, title: 'Fork', head: { ref: 'patch-1' }, base: { ref: 'main' }, fork: { owner: 'contributor' }, files: { 'b.txt': 'b\n' } })
    const list = async (query: string) => (await api(gh, 'GET', `${repo}/pulls?${query}`)).body.map((p: { number: number }) => p.number)
    expect(await list('state=all')).toEqual([2, 1])
    expect(await list('head=contributor:patch-1')).toEqual([2])
    expect(await list('head=octo-org:patch-1')).toEqual([1])
    expect(await list('head=patch-1')).toEqual([1])
    const fork = (await api(gh, 'GET', `${repo}/pulls/2`)).body
    const sameRepo = (await api(gh, 'GET', `${repo}/pulls/1`)).body
    // a branch of the base repository with the fork branch's name does not change the fork's head
    expect(fork.head.sha).not.toBe(sameRepo.head.sha)
    expect(sameRepo.head.sha).toBe(await gh.state.branchHead('patch-1'))
    expect(sameRepo.head.repo.fork).toBe(false)
  })

  test('its head can be an existing commit, from a temporary branch deleted afterwards', async () => {
    const sha = await gh.seed.commit({ branch: 'tmp', files: { 'c.txt': 'c\n' } })
    expect((await api(gh, 'DELETE', `${repo}/git/refs/heads/tmp`)).status).toBe(204)
    await gh.seed.pullRequest({ number: 3, title: 'From a sha', head: { ref: 'feature', sha }, base: { ref: 'main' }, fork: { owner: 'someone' } })
    expect((await api(gh, 'GET', `${repo}/pulls/3`)).body.head).toMatchObject({ sha, label: 'someone:feature' })
    expect((await api(gh, 'GET', `${repo}/git/ref/pull/3/head`)).body.object.sha).toBe(sha)
    await expect(
      gh.seed.pullRequest({ title: 'Nothing', head: { ref: 'x' }, base: { ref: 'main' }, fork: { owner: 'someone' } }),
    ).rejects.toThrow('needs head.sha or files')
  })

  test('refs/pull/<n>/head can be fetched over HTTP, not pushed', async () => {
    const seeded = await gh.seed.pullRequest({
      number: 12,
      title: 'Contribution',
      head: { ref: 'main' },
      base: { ref: 'main' },
      fork: { owner: 'contributor' },
      files: { 'contrib.txt': 'thanks\n' },
    })
    await client.ok(['clone', '--quiet', gh.gitUrl, 'work'], { env: gh.gitAuthEnv() })
    const remote = await client.ok(['ls-remote', 'origin'], { cwd: 'work', env: gh.gitAuthEnv() })
    expect(remote).toContain(`${seeded.pull!.headSha}\trefs/pull/12/head`)
    await client.ok(['fetch', '--quiet', 'origin', '+refs/pull/12/head:refs/remotes/pull/12'], { cwd: 'work', env: gh.gitAuthEnv() })
    expect(await client.ok(['rev-parse', 'refs/remotes/pull/12'], { cwd: 'work' })).toBe(seeded.pull!.headSha)
    expect(await client.ok(['show', 'refs/remotes/pull/12:contrib.txt'], { cwd: 'work' })).toBe('thanks')
    // fetching by sha, as actions/checkout does for a pull request's head
    await client.ok(['fetch', '--quiet', 'origin', seeded.pull!.headSha], { cwd: 'work', env: gh.gitAuthEnv() })

    const push = await client.run(['push', 'origin', 'HEAD:refs/pull/12/head'], { cwd: 'work', env: gh.gitAuthEnv() })
    expect(push.code).not.toBe(0)
    expect(push.stderr).toContain('hidden ref')
    expect((await bareRefs())['refs/pull/12/head']).toBe(seeded.pull!.headSha)
    expect(gh.pushes).toEqual([])
  })
})

describe('refs/pull/<n>/head of a pull request from a branch of the repository', () => {
  test('follows the head branch while open (pushes included), stays when closed', async () => {
    await gh.seed.branch('feature')
    const first = await gh.seed.commit({ branch: 'feature', files: { 'f.txt': '1\n' } })
    await gh.seed.pullRequest({ number: 4, title: 'Feature', head: { ref: 'feature' }, base: { ref: 'main' } })
    expect((await bareRefs())['refs/pull/4/head']).toBe(first)

    await client.ok(['clone', '--quiet', '--branch', 'feature', gh.gitUrl, 'work'], { env: gh.gitAuthEnv() })
    await writeFile(client.path('work', 'f.txt'), '2\n')
    await client.ok(['commit', '--quiet', '-am', 'Second'], { cwd: 'work' })
    const second = await client.ok(['rev-parse', 'HEAD'], { cwd: 'work' })
    await client.ok(['push', '--quiet', 'origin', 'feature'], { cwd: 'work', env: gh.gitAuthEnv() })
    expect((await bareRefs())['refs/pull/4/head']).toBe(second)
    expect((await api(gh, 'GET', `${repo}/pulls/4`)).body.head.sha).toBe(second)

    // a commit through the API moves it too (the ref is brought up to date before each request is answered)
    const third = await gh.seed.commit({ branch: 'feature', files: { 'f.txt': '3\n' } })
    expect((await api(gh, 'GET', `${repo}/git/ref/pull/4/head`)).body.object.sha).toBe(third)

    expect((await api(gh, 'PATCH', `${repo}/pulls/4`, { body: { state: 'closed' } })).status).toBe(200)
    await gh.seed.commit({ branch: 'feature', files: { 'f.txt': '4\n' } })
    expect((await api(gh, 'GET', `${repo}/pulls/4`)).body.head.sha).toBe(third)
    expect((await bareRefs())['refs/pull/4/head']).toBe(third)
  })

  test('pulls/create and seeding with files create it', async () => {
    await gh.seed.pullRequest({ number: 5, title: 'Seeded', head: { ref: 'seeded' }, base: { ref: 'main' }, files: { 's.txt': 's\n' } })
    const seededHead = await gh.state.branchHead('seeded')
    expect(await gh.state.readFile('seeded', 's.txt')).toBe('s\n')
    await gh.seed.branch('created')
    await gh.seed.commit({ branch: 'created', files: { 'c.txt': 'c\n' } })
    const created = await api(gh, 'POST', `${repo}/pulls`, { body: { title: 'Created', head: 'created', base: 'main' } })
    expect(created.status).toBe(201)
    const refs = await bareRefs()
    expect(refs['refs/pull/5/head']).toBe(seededHead)
    expect(refs[`refs/pull/${created.body.number}/head`]).toBe(created.body.head.sha)
  })
})
