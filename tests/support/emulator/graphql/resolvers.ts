/**
 * The part of GitHub's GraphQL API the emulator serves, as plain objects whose fields are values or functions of the
 * field's arguments (see `emulatorFieldResolver`): `repository { ref object defaultBranchRef … }` and the
 * `createCommitOnBranch` mutation.
 */
import { GraphQLError, type GraphQLFieldResolver } from 'graphql'
import { commitToBranch } from '../git/branch-commits.js'
import type { GitObject, GitStore } from '../git/git-store.js'
import type { RepoStore } from '../store/repo-store.js'
import type { UserRecord } from '../store/records.js'
import { nodeId, type Urls } from '../store/urls.js'
import { accountSignature } from '../signature.js'

export interface GraphqlContext {
  git: GitStore
  store: RepoStore
  urls: Urls
  actor: UserRecord
  /** reports a field of GitHub's schema that the emulator does not serve */
  notEmulated: (field: string) => void
}

type Node = Record<string, unknown>

/** An error as GitHub's GraphQL API reports it, with its `type` (NOT_FOUND, STALE_DATA, UNPROCESSABLE…). */
export class GithubGraphqlError extends GraphQLError {
  constructor(
    readonly type: string,
    message: string,
  ) {
    super(message)
  }
}

/** Reads a field from the emulator's node objects; a field the node lacks is reported as not emulated. */
export const emulatorFieldResolver: GraphQLFieldResolver<unknown, GraphqlContext> = (source, args, context, info) => {
  const value = (source as Node)[info.fieldName]
  if (value === undefined) {
    context.notEmulated(`${info.parentType.name}.${info.fieldName}`)
    return null
  }
  return typeof value === 'function' ? (value as (args: unknown) => unknown)(args) : value
}

export function rootValue(context: GraphqlContext): Node {
  return {
    repository: ({ owner, name }: { owner: string; name: string }) => {
      if (!namesThisRepository(context, `${owner}/${name}`)) {
        throw new GithubGraphqlError('NOT_FOUND', `Could not resolve to a Repository with the name '${owner}/${name}'.`)
      }
      return repositoryNode(context)
    },
    createCommitOnBranch: ({ input }: { input: CreateCommitOnBranchInput }) => createCommitOnBranch(context, input),
  }
}

function namesThisRepository({ store }: GraphqlContext, nameWithOwner: string): boolean {
  const { owner, name } = store.repository
  return nameWithOwner.toLowerCase() === `${owner}/${name}`.toLowerCase()
}

function repositoryNode(context: GraphqlContext): Node {
  const { store, urls } = context
  const repo = store.repository
  return {
    id: nodeId('Repository', repo.id),
    databaseId: repo.id,
    name: repo.name,
    nameWithOwner: `${repo.owner}/${repo.name}`,
    url: urls.repoHtml(),
    isPrivate: repo.private,
    defaultBranchRef: () => refNode(context, `refs/heads/${repo.defaultBranch}`),
    ref: ({ qualifiedName }: { qualifiedName: string }) =>
      refNode(context, qualifiedName.startsWith('refs/') ? qualifiedName : `refs/heads/${qualifiedName}`),
    object: ({ expression, oid }: { expression?: string; oid?: string }) => objectNode(context, expression ?? oid ?? ''),
  }
}

async function refNode(context: GraphqlContext, ref: string): Promise<Node | null> {
  const sha = await context.git.resolveRef(ref)
  if (sha === null) return null
  const prefix = /^refs\/(heads|tags)\//.exec(ref)?.[0] ?? 'refs/'
  return {
    id: nodeId('Ref', ref),
    name: ref.slice(prefix.length),
    prefix,
    target: () => objectNode(context, sha),
  }
}

/** The object an expression names: `<oid>`, `<branch>`, `<branch>:<path>` or `<oid>:<path>`. */
async function objectNode(context: GraphqlContext, expression: string): Promise<Node | null> {
  const object = await context.git.readObject(expression)
  if (object === null) return null
  const path = expression.includes(':') ? expression.slice(expression.indexOf(':') + 1).replace(/\/+$/, '') : ''
  return gitObjectNode(context, object, path)
}

function gitObjectNode(context: GraphqlContext, object: GitObject, path: string): Node | null {
  switch (object.type) {
    case 'blob':
      return blobNode(context, object)
    case 'tree':
      return treeNode(context, object.sha, path)
    case 'commit':
      return commitNode(context, object.sha)
    default:
      context.notEmulated(`GitObject of type ${object.type}`)
      return null
  }
}

function commonGitFields(context: GraphqlContext, typename: string, sha: string): Node {
  return {
    __typename: typename,
    id: nodeId(typename, sha),
    oid: sha,
    abbreviatedOid: sha.slice(0, 7),
    commitUrl: context.urls.repoHtml(`/commit/${sha}`),
    commitResourcePath: `/${context.store.repository.owner}/${context.store.repository.name}/commit/${sha}`,
  }
}

/** Git's heuristic: a NUL byte in the first 8000 bytes makes a blob binary. */
function isBinary(content: Buffer): boolean {
  return content.subarray(0, 8000).includes(0)
}

function blobNode(context: GraphqlContext, blob: GitObject): Node {
  const binary = isBinary(blob.content)
  return {
    ...commonGitFields(context, 'Blob', blob.sha),
    byteSize: blob.size,
    isBinary: binary,
    isTruncated: false,
    text: binary ? null : blob.content.toString('utf8'),
  }
}

function treeNode(context: GraphqlContext, sha: string, path: string): Node {
  return {
    ...commonGitFields(context, 'Tree', sha),
    entries: async () =>
      (await context.git.listTree(sha)).map((entry) => {
        const entryPath = path === '' ? entry.path : `${path}/${entry.path}`
        return {
          name: entry.path,
          path: entryPath,
          type: entry.type,
          mode: parseInt(entry.mode, 8),
          oid: entry.sha,
          size: entry.size ?? 0,
          extension: /(\.[^./]+)$/.exec(entry.path)?.[1] ?? null,
          isGenerated: false,
          object: async () => {
            const object = await context.git.readObject(entry.sha)
            return object === null ? null : gitObjectNode(context, object, entryPath)
          },
        }
      }),
  }
}

function commitNode(context: GraphqlContext, sha: string): Node {
  let commit: ReturnType<GitStore['readCommit']> | undefined
  const data = async () => {
    commit ??= context.git.readCommit(sha)
    const read = await commit
    if (read === null) throw new GithubGraphqlError('NOT_FOUND', `Could not resolve to a Commit with the oid ${sha}.`)
    return read
  }
  const message = async () => (await data()).message.replace(/\n+$/, '')
  const actor = (which: 'author' | 'committer') => async () => {
    const signature = (await data())[which]
    return { name: signature.name, email: signature.email, date: signature.date }
  }
  return {
    ...commonGitFields(context, 'Commit', sha),
    url: context.urls.repoHtml(`/commit/${sha}`),
    message,
    messageHeadline: async () => (await message()).split('\n')[0],
    messageBody: async () => (await message()).split('\n').slice(1).join('\n').replace(/^\n+/, ''),
    committedDate: async () => (await data()).committer.date,
    authoredDate: async () => (await data()).author.date,
    author: actor('author'),
    committer: actor('committer'),
    tree: async () => treeNode(context, (await data()).tree, ''),
    // Commit.file(path): the TreeEntry at `path` in this commit, or null.
    file: async ({ path }: { path: string }) => {
      const clean = path.replace(/^\/+|\/+$/g, '')
      const object = await context.git.readObject(`${sha}:${clean}`)
      if (object === null) return null
      const name = clean.slice(clean.lastIndexOf('/') + 1)
      return {
        name,
        path: clean,
        type: object.type,
        oid: object.sha,
        extension: /(\.[^./]+)$/.exec(name)?.[1] ?? null,
        object: () => gitObjectNode(context, object, clean),
      }
    },
    parents: async () => {
      const parents = (await data()).parents
      return { totalCount: parents.length, nodes: parents.map((parent) => commitNode(context, parent)) }
    },
  }
}

interface CreateCommitOnBranchInput {
  branch: { repositoryNameWithOwner?: string | null; branchName?: string | null; id?: string | null }
  expectedHeadOid: string
  message: { headline: string; body?: string | null }
  fileChanges?: { additions?: Array<{ path: string; contents: string }>; deletions?: Array<{ path: string }> } | null
  clientMutationId?: string | null
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/

function checkPath(path: string): void {
  if (path.split('/').some((segment) => segment === '' || segment === '.' || segment === '..')) {
    throw new GithubGraphqlError('UNPROCESSABLE', `The path "${path}" is not valid.`)
  }
}

/** The branch a CommittableBranch names: `{repositoryNameWithOwner, branchName}` or the `id` of a Ref. */
function targetBranch(context: GraphqlContext, branch: CreateCommitOnBranchInput['branch']): string {
  if (branch.id) {
    const ref = Buffer.from(branch.id, 'base64').toString('utf8').replace(/^Ref:/, '')
    if (!ref.startsWith('refs/heads/')) {
      throw new GithubGraphqlError('NOT_FOUND', `Could not resolve to a node with the global id of '${branch.id}'`)
    }
    return ref.slice('refs/heads/'.length)
  }
  const name = branch.repositoryNameWithOwner ?? ''
  if (!namesThisRepository(context, name)) {
    throw new GithubGraphqlError('NOT_FOUND', `Could not resolve to a Repository with the name '${name}'.`)
  }
  if (!branch.branchName) throw new GithubGraphqlError('UNPROCESSABLE', 'A branch name is required.')
  return branch.branchName.replace(/^refs\/heads\//, '')
}

async function createCommitOnBranch(context: GraphqlContext, input: CreateCommitOnBranchInput): Promise<Node> {
  const branch = targetBranch(context, input.branch)
  const additions = (input.fileChanges?.additions ?? []).map(({ path, contents }) => {
    checkPath(path)
    if (!BASE64.test(contents.replace(/\s+/g, ''))) {
      throw new GithubGraphqlError('UNPROCESSABLE', `The contents of "${path}" are not valid Base64.`)
    }
    return { path, content: Buffer.from(contents, 'base64') }
  })
  const deletions = (input.fileChanges?.deletions ?? []).map(({ path }) => {
    checkPath(path)
    return path
  })
  const { headline, body } = input.message
  const result = await commitToBranch(context.git, {
    branch,
    expectedHead: input.expectedHeadOid,
    changes: { additions, deletions },
    message: body ? `${headline}\n\n${body}` : headline,
    author: accountSignature(context.actor),
  })
  switch (result.outcome) {
    case 'missing-branch':
      throw new GithubGraphqlError('NOT_FOUND', `Could not resolve to a Ref named 'refs/heads/${branch}'.`)
    case 'stale':
      throw new GithubGraphqlError(
        'STALE_DATA',
        `Expected branch to point to "${input.expectedHeadOid}" but it did not.  Pull and try again.`,
      )
    case 'missing-path':
      throw new GithubGraphqlError(
        'UNPROCESSABLE',
        `A path was requested for deletion which does not exist as of commit oid \`${result.head}\``,
      )
    case 'committed':
      return {
        clientMutationId: input.clientMutationId ?? null,
        commit: commitNode(context, result.sha),
        ref: () => refNode(context, `refs/heads/${branch}`),
      }
  }
}
