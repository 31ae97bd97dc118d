import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import { request as httpRequest } from 'node:http'
import { startEmulator, type Emulator } from '../support/emulator/index.js'
import { graphql } from './http-client.js'

let gh: Emulator
let head: string

beforeEach(async () => {
  gh = await startEmulator({ owner: 'octo-org', repo: 'demo' })
  await gh.seed.commit({ files: { 'README.md': '# demo\n' } })
  head = await gh.seed.commit({
    branch: 'converge/state',
    files: { '.converge/state.json': '{"status":"pending"}\n', '.converge/issues/42/issue.json': '{"number":42}\n' },
  })
})

afterEach(async () => {
  await gh.close()
})

const COMMIT = `
  mutation Commit($input: CreateCommitOnBranchInput!) {
    createCommitOnBranch(input: $input) { commit { oid url } ref { name target { oid } } }
  }`

function commitInput(expectedHeadOid: string, additions: Record<string, string>, deletions: string[] = []) {
  return {
    input: {
      branch: { repositoryNameWithOwner: 'octo-org/demo', branchName: 'converge/state' },
      expectedHeadOid,
      message: { headline: 'ISS-42: planned SOL-ISS-42-1 (3 tasks)', body: 'by converge' },
      fileChanges: {
        additions: Object.entries(additions).map(([path, text]) => ({ path, contents: Buffer.from(text).toString('base64') })),
        deletions: deletions.map((path) => ({ path })),
      },
    },
  }
}

describe('reading', () => {
  test('several files, a tree and the head in ONE request, with aliases', async () => {
    const answer = await graphql(
      gh,
      `query Read($owner: String!, $name: String!) {
        repository(owner: $owner, name: $name) {
          ref(qualifiedName: "refs/heads/converge/state") { name target { oid } }
          state: object(expression: "converge/state:.converge/state.json") { ... on Blob { text oid byteSize isBinary } }
          issue: object(expression: "converge/state:.converge/issues/42/issue.json") { ... on Blob { text } }
          missing: object(expression: "converge/state:.converge/nope.json") { ... on Blob { text } }
          dir: object(expression: "converge/state:.converge") { ... on Tree { entries { name path type oid } } }
          defaultBranchRef { name target { oid } }
        }
      }`,
      { owner: 'octo-org', name: 'demo' },
    )
    expect(answer.status).toBe(200)
    expect(answer.body.errors).toBeUndefined()
    const repository = answer.body.data.repository
    expect(repository.ref).toEqual({ name: 'converge/state', target: { oid: head } })
    expect(repository.state).toMatchObject({ text: '{"status":"pending"}\n', byteSize: 21, isBinary: false })
    expect(repository.issue.text).toBe('{"number":42}\n')
    expect(repository.missing).toBeNull()
    expect(repository.dir.entries).toMatchObject([
      { name: 'issues', path: '.converge/issues', type: 'tree' },
      { name: 'state.json', path: '.converge/state.json', type: 'blob' },
    ])
    expect(repository.defaultBranchRef.name).toBe('main')
    expect(gh.requests.filter((r) => r.path === '/graphql')).toHaveLength(1)
    expect(gh.requests[0]!.graphql).toEqual({ operation: 'query', operationName: 'Read', fields: ['repository'] })
    expect(gh.rateLimit.graphqlUsed).toBe(1)
    gh.expectNoViolations()
  })

  test('a ref that does not exist is null; another repository is NOT_FOUND', async () => {
    const answer = await graphql(gh, '{ repository(owner: "octo-org", name: "demo") { ref(qualifiedName: "nope") { name } } }')
    expect(answer.body.data.repository.ref).toBeNull()
    const other = await graphql(gh, '{ repository(owner: "octo-org", name: "other") { id } }')
    expect(other.body.errors).toMatchObject([{ type: 'NOT_FOUND', path: ['repository'] }])
    gh.expectNoViolations()
  })
})

describe('createCommitOnBranch', () => {
  test('commits additions and deletions on top of the expected head', async () => {
    const answer = await graphql(
      gh,
      COMMIT,
      commitInput(head, { '.converge/issues/42/plan.json': '{"id":"SOL-ISS-42-1"}\n' }, ['.converge/issues/42/issue.json']),
    )
    expect(answer.body.errors).toBeUndefined()
    const { commit, ref } = answer.body.data.createCommitOnBranch
    expect(ref).toEqual({ name: 'converge/state', target: { oid: commit.oid } })
    expect(commit.url).toBe(`https://github.com/octo-org/demo/commit/${commit.oid}`)
    expect(await gh.state.branchHead('converge/state')).toBe(commit.oid)
    const [latest] = await gh.state.commits('converge/state')
    expect(latest).toMatchObject({ parents: [head], message: 'ISS-42: planned SOL-ISS-42-1 (3 tasks)\n\nby converge' })
    expect(latest!.author.name).toBe('github-actions[bot]')
    expect(await gh.state.listFiles('converge/state')).toEqual(['.converge/issues/42/plan.json', '.converge/state.json'])
    gh.expectNoViolations()
  })

  test('a stale expectedHeadOid is rejected with GitHub’s STALE_DATA error and writes nothing', async () => {
    const moved = await gh.seed.commit({ branch: 'converge/state', files: { '.converge/state.json': '{"status":"running"}\n' } })
    const answer = await graphql(gh, COMMIT, commitInput(head, { '.converge/state.json': '{"status":"lost"}\n' }))
    expect(answer.status).toBe(200)
    expect(answer.body.data).toEqual({ createCommitOnBranch: null })
    expect(answer.body.errors).toEqual([
      {
        type: 'STALE_DATA',
        path: ['createCommitOnBranch'],
        locations: [{ line: 3, column: 5 }],
        message: `Expected branch to point to "${head}" but it did not.  Pull and try again.`,
      },
    ])
    expect(await gh.state.branchHead('converge/state')).toBe(moved)
    expect(await gh.state.readFile('converge/state', '.converge/state.json')).toBe('{"status":"running"}\n')
    gh.expectNoViolations()
  })

  test('concurrent writers with the same expected head: exactly one wins', async () => {
    const answers = await Promise.all(
      [1, 2, 3, 4].map((n) => graphql(gh, COMMIT, commitInput(head, { [`.converge/writer-${n}`]: `${n}` }))),
    )
    const winners = answers.filter((answer) => answer.body.errors === undefined)
    expect(winners).toHaveLength(1)
    expect(answers.filter((answer) => answer.body.errors?.[0]?.type === 'STALE_DATA')).toHaveLength(3)
    expect((await gh.state.commits('converge/state')).length).toBe(2)
  })

  test('the branch must exist; deleting a missing path is rejected', async () => {
    const noBranch = await graphql(gh, COMMIT, {
      input: { ...commitInput(head, {}).input, branch: { repositoryNameWithOwner: 'octo-org/demo', branchName: 'converge/nope' } },
    })
    expect(noBranch.body.errors).toMatchObject([{ type: 'NOT_FOUND' }])
    expect(await gh.state.branchHead('converge/nope')).toBeNull()
    const noPath = await graphql(gh, COMMIT, commitInput(head, {}, ['not/there.json']))
    expect(noPath.body.errors).toMatchObject([{ type: 'UNPROCESSABLE' }])
    expect(await gh.state.branchHead('converge/state')).toBe(head)
  })
})

describe('documents GitHub would reject', () => {
  test('an unknown field is a violation and a GraphQL error', async () => {
    const answer = await graphql(gh, '{ repository(owner: "octo-org", name: "demo") { noSuchField } }')
    expect(answer.status).toBe(200)
    expect(answer.body.errors![0]!.message).toContain('Cannot query field "noSuchField" on type "Repository"')
    expect(gh.violations).toMatchObject([{ kind: 'invalid-graphql', path: '/graphql' }])
  })

  test('a syntax error, a missing required input field and a wrong variable type are violations', async () => {
    await graphql(gh, '{ repository(owner: "octo-org" { id } }')
    await graphql(gh, 'mutation { createCommitOnBranch(input: { branch: { branchName: "x" }, message: { headline: "h" } }) { clientMutationId } }')
    await graphql(gh, COMMIT, { input: { nope: true } })
    expect(gh.violations.map((v) => v.kind)).toEqual(['invalid-graphql', 'invalid-graphql', 'invalid-graphql'])
    expect(await gh.state.branchHead('converge/state')).toBe(head)
  })

  test('a real field the emulator does not serve is reported as not emulated', async () => {
    const answer = await graphql(gh, '{ repository(owner: "octo-org", name: "demo") { stargazerCount } }')
    expect(answer.body.errors).toBeDefined()
    expect(gh.violations).toMatchObject([{ kind: 'not-emulated', problems: ['GraphQL field Repository.stargazerCount'] }])
  })
})

describe('clients that go away', () => {
  test('a request its client closed before sending its whole body is no error of the emulator', async () => {
    const request = httpRequest(new URL(`${gh.url}/graphql`), {
      method: 'POST', headers: { authorization: `token ${gh.token}`, 'content-type': 'application/json', 'content-length': '400' },
    })
    request.on('error', () => {})
    request.write('{"query": "{ viewer')
    await new Promise((resolve) => setTimeout(resolve, 200))
    request.destroy()
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(gh.violations).toEqual([])
    expect(gh.requests.at(-1)).toMatchObject({ path: '/graphql', status: 499 })
  })
})
