import { randomBytes } from 'node:crypto'
import { writeFile } from 'node:fs/promises'
import { request as httpRequest } from 'node:http'
import { gzipSync } from 'node:zlib'
import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import { startEmulator, type Emulator } from '../support/emulator/index.js'
import { GitClient } from './git-client.js'
import { api, graphql } from './http-client.js'

let gh: Emulator
let client: GitClient

beforeEach(async () => {
  gh = await startEmulator({ owner: 'octo-org', repo: 'demo', files: { 'README.md': '# demo\n' } })
  gh.seed.token('alice-token', 'alice')
  gh.seed.permission('alice', 'write')
  gh.seed.token('reader-token', 'reader')
  gh.seed.permission('reader', 'read')
  client = await GitClient.create()
})

afterEach(async () => {
  await gh.close()
  await client.remove()
})

const repo = '/repos/octo-org/demo'

/** Clones the emulator's repository into `work` with `token`'s credentials (as actions/checkout passes them). */
async function cloneWith(token: string = gh.token): Promise<void> {
  await client.ok(['clone', '--quiet', gh.gitUrl, 'work'], { env: gh.gitAuthEnv(token) })
}

async function commitFile(path: string, content: string, message = `Update ${path}`): Promise<string> {
  await writeFile(client.path('work', path), content)
  await client.ok(['add', path], { cwd: 'work' })
  await client.ok(['commit', '--quiet', '-m', message], { cwd: 'work' })
  return client.ok(['rev-parse', 'HEAD'], { cwd: 'work' })
}

const GIT_OPERATIONS = ['git/info-refs', 'git/upload-pack', 'git/receive-pack']
const gitRequests = () => gh.requests.filter((r) => GIT_OPERATIONS.includes(r.operationId ?? ''))

describe('clone and push over HTTP', () => {
  test('a pushed branch is seen by the REST and GraphQL APIs; git costs no rate limit', async () => {
    await cloneWith()
    expect(await client.ok(['log', '--format=%s'], { cwd: 'work' })).toBe('Initial commit')
    const sha = await commitFile('feature.txt', 'new\n')
    await client.ok(['push', '--quiet', 'origin', 'HEAD:refs/heads/feature'], { cwd: 'work', env: gh.gitAuthEnv() })

    expect(gh.rateLimit.used).toBe(0)
    const branch = await api(gh, 'GET', `${repo}/branches/feature`)
    expect(branch.status).toBe(200)
    expect(branch.body.commit.sha).toBe(sha)
    expect((await api(gh, 'GET', `${repo}/git/ref/heads/feature`)).body.object.sha).toBe(sha)
    expect(await gh.state.readFile('feature', 'feature.txt')).toBe('new\n')
    expect(gh.rateLimit.used).toBe(2)
    const answer = await graphql(gh, '{ repository(owner: "octo-org", name: "demo") { ref(qualifiedName: "feature") { target { oid } } } }')
    expect(answer.body.data.repository.ref.target.oid).toBe(sha)
    expect(gh.rateLimit.graphqlUsed).toBe(1)

    expect(gh.pushes).toEqual([{ actor: 'github-actions[bot]', refs: [{ ref: 'refs/heads/feature', before: null, after: sha }] }])
    expect(gitRequests().map((r) => [r.method, r.operationId, r.query.service ?? '', r.status, r.actor])).toEqual([
      ['GET', 'git/info-refs', 'git-upload-pack', 200, 'github-actions[bot]'],
      ['POST', 'git/upload-pack', '', 200, 'github-actions[bot]'],
      ['POST', 'git/upload-pack', '', 200, 'github-actions[bot]'],
      ['GET', 'git/info-refs', 'git-receive-pack', 200, 'github-actions[bot]'],
      ['POST', 'git/receive-pack', '', 200, 'github-actions[bot]'],
    ])
    expect(gitRequests().every((r) => r.fault === undefined && r.body === undefined)).toBe(true)
    // the token travels in a header only
    expect(gh.requests.every((r) => !JSON.stringify(r).includes(gh.token))).toBe(true)
    gh.expectNoViolations()
  })

  test('a registered token pushes as its user; fast-forwards and deletions are recorded', async () => {
    await cloneWith('alice-token')
    const main = (await gh.state.branchHead('main'))!
    const sha = await commitFile('a.txt', 'a\n')
    await client.ok(['push', '--quiet', 'origin', 'HEAD:main', 'HEAD:refs/heads/topic'], { cwd: 'work', env: gh.gitAuthEnv('alice-token') })
    await client.ok(['push', '--quiet', 'origin', ':topic'], { cwd: 'work', env: gh.gitAuthEnv('alice-token') })
    expect(gh.pushes).toEqual([
      {
        actor: 'alice',
        refs: [
          { ref: 'refs/heads/main', before: main, after: sha },
          { ref: 'refs/heads/topic', before: null, after: sha },
        ],
      },
      { actor: 'alice', refs: [{ ref: 'refs/heads/topic', before: sha, after: null }] },
    ])
    expect(await gh.state.branchHead('main')).toBe(sha)
    expect((await api(gh, 'GET', `${repo}/branches/topic`)).status).toBe(404)
    gh.expectNoViolations()
  })

  test('a non-fast-forward push is rejected; a forced one goes through', async () => {
    await cloneWith()
    const theirs = await gh.seed.commit({ files: { 'other.txt': 'someone else\n' } })
    const mine = await commitFile('mine.txt', 'mine\n')
    const rejected = await client.run(['push', 'origin', 'HEAD:main'], { cwd: 'work', env: gh.gitAuthEnv() })
    expect(rejected.code).not.toBe(0)
    expect(rejected.stderr).toMatch(/\[rejected\]/)
    expect(await gh.state.branchHead('main')).toBe(theirs)
    expect(gh.pushes).toEqual([])

    await client.ok(['push', '--quiet', '--force', 'origin', 'HEAD:main'], { cwd: 'work', env: gh.gitAuthEnv() })
    expect(await gh.state.branchHead('main')).toBe(mine)
    expect(gh.pushes).toEqual([{ actor: 'github-actions[bot]', refs: [{ ref: 'refs/heads/main', before: theirs, after: mine }] }])
    gh.expectNoViolations()
  })

  test('a large push (a chunked request body, beyond http.postBuffer) goes through', async () => {
    await cloneWith()
    const big = randomBytes(3 * 1024 * 1024).toString('base64')
    const sha = await commitFile('big.txt', big)
    const trace = { GIT_TRACE_CURL: '1', GIT_TRACE_CURL_NO_DATA: '1' }
    const pushed = await client.run(['push', 'origin', 'HEAD:refs/heads/big'], { cwd: 'work', env: { ...gh.gitAuthEnv(), ...trace } })
    expect(pushed.code).toBe(0)
    expect(pushed.stderr).toMatch(/Send header: Transfer-Encoding: chunked/)
    expect(await gh.state.branchHead('big')).toBe(sha)
    expect(await gh.state.readFile('big', 'big.txt')).toBe(big)
    gh.expectNoViolations()
  })

  test('many local commits make git gzip its upload-pack request; the backend inflates it', async () => {
    await cloneWith()
    // Dated after the clone's commit: git sends its haves newest first, 16 in the first round, and a base commit of
    // the same second could come first, end the negotiation early and leave the request too small to compress.
    const later = (i: number) => ({ GIT_COMMITTER_DATE: `${Math.floor(Date.now() / 1000) + 60 * (i + 1)} +0000` })
    for (let i = 0; i < 40; i++) {
      await writeFile(client.path('work', `f${i}.txt`), `${i}\n`)
      await client.ok(['add', `f${i}.txt`], { cwd: 'work' })
      await client.ok(['commit', '--quiet', '-m', `Update f${i}.txt`], { cwd: 'work', env: later(i) })
    }
    const remote = await gh.seed.commit({ files: { 'remote.txt': 'remote\n' } })
    const trace = { GIT_TRACE_CURL: '1', GIT_TRACE_CURL_NO_DATA: '1' }
    const fetched = await client.run(['fetch', '--quiet', 'origin'], { cwd: 'work', env: { ...gh.gitAuthEnv(), ...trace } })
    expect(fetched.code).toBe(0)
    expect(fetched.stderr).toMatch(/Send header: Content-Encoding: gzip/)
    expect(await client.ok(['rev-parse', 'origin/main'], { cwd: 'work' })).toBe(remote)
    gh.expectNoViolations()
  })

  test('a push whose client went away while it waited for another push does not hold up the pushes after it', async () => {
    await cloneWith()
    const url = new URL(`${gh.gitUrl}/git-receive-pack`)
    const auth = `Basic ${Buffer.from(`x-access-token:${gh.token}`).toString('base64')}`
    /** A receive-pack request whose body has begun and not ended: its backend waits for the rest. */
    const hanging = () => {
      const request = httpRequest(url, { method: 'POST', headers: { authorization: auth, 'content-type': 'application/x-git-receive-pack-request' } })
      request.on('error', () => {})
      request.write('00a4') // a pkt-line's length, and not the line: the backend waits for it
      return request
    }
    const pause = () => new Promise((resolve) => setTimeout(resolve, 300))
    const first = hanging() // holds the push lock
    await pause()
    const second = hanging() // waits for the lock…
    await pause()
    second.destroy() // …and its client is killed meanwhile
    await pause()
    first.destroy()

    await commitFile('after.txt', 'after\n')
    await client.ok(['push', '--quiet', 'origin', 'HEAD:refs/heads/after'], { cwd: 'work', env: gh.gitAuthEnv() })
    expect(await gh.state.readFile('after', 'after.txt')).toBe('after\n')
  }, 20_000)
})

describe('authentication and permissions', () => {
  test('a push without credentials is answered 401 with a Basic challenge; a public clone needs none', async () => {
    await client.ok(['clone', '--quiet', gh.gitUrl, 'work'])
    await commitFile('x.txt', 'x\n')
    const push = await client.run(['push', 'origin', 'HEAD:refs/heads/anonymous'], { cwd: 'work' })
    expect(push.code).not.toBe(0)
    expect(push.stderr).toMatch(/could not read Username|Authentication failed|401/)
    expect(gitRequests().at(-1)).toMatchObject({ operationId: 'git/info-refs', query: { service: 'git-receive-pack' }, status: 401 })
    expect(await gh.state.branchHead('anonymous')).toBeNull()

    const challenge = await fetch(`${gh.gitUrl}/info/refs?service=git-receive-pack`)
    expect(challenge.status).toBe(401)
    expect(challenge.headers.get('www-authenticate')).toBe('Basic realm="GitHub"')
    const malformed = await fetch(`${gh.gitUrl}/info/refs?service=git-upload-pack`, { headers: { authorization: 'Basic bm9wYXNzd29yZA==' } })
    expect(malformed.status).toBe(401)
    const bearer = await fetch(`${gh.gitUrl}/info/refs?service=git-upload-pack`, { headers: { authorization: `Bearer ${gh.token}` } })
    expect(bearer.status).toBe(401)
    expect(gh.pushes).toEqual([])
    gh.expectNoViolations()
  })

  test('a user who may only read gets 403 on push', async () => {
    await cloneWith('reader-token')
    await commitFile('x.txt', 'x\n')
    const push = await client.run(['push', 'origin', 'HEAD:refs/heads/reader'], { cwd: 'work', env: gh.gitAuthEnv('reader-token') })
    expect(push.code).not.toBe(0)
    expect(push.stderr).toContain('Permission to octo-org/demo.git denied to reader.')
    expect(push.stderr).toContain('403')
    expect(gitRequests().at(-1)).toMatchObject({ operationId: 'git/info-refs', status: 403, actor: 'reader' })
    expect(await gh.state.branchHead('reader')).toBeNull()
    gh.expectNoViolations()
  })

  test('the username is ignored, the password is the token; a token as username alone works too', async () => {
    const basic = (credentials: string) => ({ authorization: `Basic ${Buffer.from(credentials).toString('base64')}` })
    const asAlice = await fetch(`${gh.gitUrl}/info/refs?service=git-receive-pack`, { headers: basic('anything:alice-token') })
    expect(asAlice.status).toBe(200)
    expect(asAlice.headers.get('content-type')).toBe('application/x-git-receive-pack-advertisement')
    await asAlice.arrayBuffer()
    const tokenAsUser = await fetch(`${gh.gitUrl}/info/refs?service=git-receive-pack`, { headers: basic('reader-token:x-oauth-basic') })
    expect(tokenAsUser.status).toBe(403)
    expect(gitRequests().map((r) => r.actor)).toEqual(['alice', 'reader'])
    gh.expectNoViolations()
  })

  test('more than one Authorization header is answered 400 and recorded as a violation', async () => {
    const twice = {
      GIT_CONFIG_COUNT: '2',
      GIT_CONFIG_KEY_0: `http.${gh.gitUrl}.extraheader`,
      GIT_CONFIG_VALUE_0: gh.gitAuthEnv().GIT_CONFIG_VALUE_0!,
      GIT_CONFIG_KEY_1: `http.${gh.gitUrl}.extraheader`,
      GIT_CONFIG_VALUE_1: gh.gitAuthEnv('alice-token').GIT_CONFIG_VALUE_0!,
    }
    const clone = await client.run(['clone', gh.gitUrl, 'work'], { env: twice })
    expect(clone.code).not.toBe(0)
    expect(clone.stderr).toContain('400')
    expect(gitRequests()[0]).toMatchObject({ operationId: 'git/info-refs', status: 400 })
    expect(gh.violations).toEqual([expect.objectContaining({ kind: 'duplicate-authorization', operationId: 'git/info-refs' })])
    expect(() => gh.expectNoViolations()).toThrow('duplicate-authorization')
  })

  test('a private repository: 401 without credentials, 404 to users without access', async () => {
    const privateGh = await startEmulator({ owner: 'octo-org', repo: 'secret', private: true, files: { 'a.txt': 'a\n' } })
    try {
      privateGh.seed.token('stranger-token', 'stranger')
      const anonymous = await client.run(['clone', privateGh.gitUrl, 'anonymous'])
      expect(anonymous.code).not.toBe(0)
      const stranger = await client.run(['clone', privateGh.gitUrl, 'stranger'], { env: privateGh.gitAuthEnv('stranger-token') })
      expect(stranger.stderr).toContain('Repository not found.')
      expect(privateGh.requests.map((r) => r.status)).toEqual([401, 404])
      await client.ok(['clone', '--quiet', privateGh.gitUrl, 'bot'], { env: privateGh.gitAuthEnv() })
      privateGh.expectNoViolations()
    } finally {
      await privateGh.close()
    }
  })
})

describe('the protocol', () => {
  test('a gzip-encoded upload-pack request (protocol v0) is answered with a pack', async () => {
    const main = (await gh.state.branchHead('main'))!
    const pkt = (line: string) => `${(line.length + 4).toString(16).padStart(4, '0')}${line}`
    const request = `${pkt(`want ${main} ofs-delta\n`)}0000${pkt('done\n')}`
    const response = await fetch(`${gh.gitUrl}/git-upload-pack`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`x-access-token:${gh.token}`).toString('base64')}`,
        'content-type': 'application/x-git-upload-pack-request',
        'content-encoding': 'gzip',
      },
      body: gzipSync(request),
    })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('application/x-git-upload-pack-result')
    const body = Buffer.from(await response.arrayBuffer())
    expect(body.subarray(0, 8).toString()).toBe('0008NAK\n')
    expect(body.includes('PACK')).toBe(true)
    gh.expectNoViolations()
  })

  test('the dumb protocol, and other repositories, are not served', async () => {
    const auth = { authorization: `Basic ${Buffer.from(`x-access-token:${gh.token}`).toString('base64')}` }
    const dumb = await fetch(`${gh.gitUrl}/info/refs`, { headers: auth })
    expect(dumb.status).toBe(403)
    expect(gh.violations).toEqual([expect.objectContaining({ kind: 'unknown-route', operationId: 'git/info-refs' })])
    const other = await fetch(`${gh.url}/octo-org/other.git/info/refs?service=git-upload-pack`, { headers: auth })
    expect(other.status).toBe(404)
    const withoutSuffix = await fetch(`${gh.url}/octo-org/demo/info/refs?service=git-upload-pack`, { headers: auth })
    expect(withoutSuffix.status).toBe(200)
    await withoutSuffix.arrayBuffer()
    expect(gh.violations).toHaveLength(1)
  })
})
