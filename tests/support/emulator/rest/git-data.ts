import type { Signature, TreeChange } from '../git/git-store.js'
import { json, noContent, notFound, unprocessable } from '../http.js'
import { accountSignature } from '../signature.js'
import { isoSeconds } from '../time.js'
import { stringParam, type RestContext, type RestHandler } from './context.js'
import { blobShape, gitCommitShape, gitRefShape, treeShape } from './git-shapes.js'

interface TreeEntryInput {
  path: string
  mode: string
  type: 'blob' | 'tree' | 'commit'
  sha?: string | null
  content?: string
}

interface CommitInput {
  message: string
  tree: string
  parents?: string[]
  author?: { name: string; email: string; date?: string }
  committer?: { name: string; email: string; date?: string }
}

/** `heads/main` (as in `/git/ref/heads/main`) → `refs/heads/main`. */
function fullRef(context: RestContext): string {
  const ref = stringParam(context, 'ref')
  return ref.startsWith('refs/') ? ref : `refs/${ref}`
}

async function refReply(context: RestContext, ref: string, sha: string, status: number) {
  const type = (await context.git.objectType(sha)) ?? 'commit'
  const shape = gitRefShape(context.urls, ref, sha, type)
  return json(status, shape, status === 201 ? { location: shape.url } : undefined)
}

const createBlob: RestHandler = async (context) => {
  const input = context.body as { content: string; encoding?: string }
  const content = Buffer.from(input.content, input.encoding === 'base64' ? 'base64' : 'utf8')
  const sha = await context.git.writeBlob(content)
  const url = context.urls.repoApi(`/git/blobs/${sha}`)
  return json(201, { url, sha }, { location: url })
}

const getBlob: RestHandler = async (context) => {
  const blob = await context.git.readObject(stringParam(context, 'file_sha'))
  if (blob === null || blob.type !== 'blob') throw notFound()
  return json(200, blobShape(context.urls, blob))
}

const createTree: RestHandler = async (context) => {
  const { git } = context
  const input = context.body as { tree: TreeEntryInput[]; base_tree?: string }
  if (input.base_tree !== undefined && (await git.objectType(input.base_tree)) !== 'tree') {
    throw unprocessable('GitRPC::BadObjectState')
  }
  const changes: TreeChange[] = []
  for (const entry of input.tree) {
    if (entry.content !== undefined) {
      changes.push({ path: entry.path, mode: entry.mode, type: 'blob', sha: await git.writeBlob(Buffer.from(entry.content, 'utf8')) })
    } else if (entry.sha === null || entry.sha === undefined) {
      changes.push({ path: entry.path, delete: true })
    } else {
      if (entry.type !== 'commit' && (await git.objectType(entry.sha)) !== entry.type) throw unprocessable('GitRPC::BadObjectState')
      changes.push(
        entry.type === 'tree'
          ? { path: entry.path, type: 'tree', sha: entry.sha }
          : { path: entry.path, mode: entry.mode, type: entry.type, sha: entry.sha },
      )
    }
  }
  const sha = await git.writeTree(input.base_tree ?? null, changes)
  const shape = treeShape(context.urls, sha, await git.listTree(sha))
  return json(201, shape, { location: shape.url })
}

const getTree: RestHandler = async (context) => {
  const tree = await context.git.readObject(`${stringParam(context, 'tree_sha')}^{tree}`)
  if (tree === null) throw notFound()
  const entries = await context.git.listTree(tree.sha, { recursive: context.query.has('recursive') })
  return json(200, treeShape(context.urls, tree.sha, entries))
}

function signatureOf(person: CommitInput['author'], fallback: Signature): Signature {
  if (person === undefined) return fallback
  return { name: person.name, email: person.email, date: person.date ? isoSeconds(new Date(person.date)) : fallback.date }
}

const createCommit: RestHandler = async (context) => {
  const { git } = context
  const input = context.body as CommitInput
  if ((await git.objectType(input.tree)) !== 'tree') throw unprocessable('Tree SHA does not exist')
  const parents = input.parents ?? []
  for (const parent of parents) {
    if ((await git.objectType(parent)) !== 'commit') throw unprocessable('Parent SHA does not exist or is not a commit object')
  }
  const author = signatureOf(input.author, accountSignature(context.actor))
  const sha = await git.writeCommit({
    tree: input.tree,
    parents,
    message: input.message,
    author,
    committer: signatureOf(input.committer, author),
  })
  const shape = gitCommitShape(context.urls, (await git.readCommit(sha))!)
  return json(201, shape, { location: shape.url })
}

const getCommit: RestHandler = async (context) => {
  const commit = await context.git.readCommit(stringParam(context, 'commit_sha'))
  if (commit === null) throw notFound()
  return json(200, gitCommitShape(context.urls, commit))
}

const getRef: RestHandler = async (context) => {
  const ref = fullRef(context)
  const sha = await context.git.resolveRef(ref)
  if (sha === null) throw notFound()
  return refReply(context, ref, sha, 200)
}

const listMatchingRefs: RestHandler = async (context) => {
  const refs = await context.git.listRefs(fullRef(context))
  return json(200, refs.map(({ ref, sha, type }) => gitRefShape(context.urls, ref, sha, type)))
}

const createRef: RestHandler = async (context) => {
  const { git } = context
  const input = context.body as { ref: string; sha: string }
  if (!input.ref.startsWith('refs/') || input.ref.split('/').length < 3 || !(await git.isValidRefName(input.ref))) {
    throw unprocessable('Reference name is invalid')
  }
  if ((await git.objectType(input.sha)) === null) throw unprocessable('Object does not exist')
  if (!(await git.createRef(input.ref, input.sha))) throw unprocessable('Reference already exists')
  return refReply(context, input.ref, input.sha, 201)
}

const UPDATE_FAILURES = {
  missing: 'Reference does not exist',
  'unknown-object': 'Object does not exist',
  'not-fast-forward': 'Update is not a fast forward',
} as const

const updateRef: RestHandler = async (context) => {
  const ref = fullRef(context)
  const input = context.body as { sha: string; force?: boolean }
  const outcome = await context.git.updateRef(ref, input.sha, { force: input.force === true })
  if (outcome !== 'updated') throw unprocessable(UPDATE_FAILURES[outcome])
  return refReply(context, ref, input.sha, 200)
}

const deleteRef: RestHandler = async (context) => {
  if (!(await context.git.deleteRef(fullRef(context)))) throw unprocessable('Reference does not exist')
  return noContent()
}

export const gitDataHandlers: Record<string, RestHandler> = {
  'git/create-blob': createBlob,
  'git/get-blob': getBlob,
  'git/create-tree': createTree,
  'git/get-tree': getTree,
  'git/create-commit': createCommit,
  'git/get-commit': getCommit,
  'git/get-ref': getRef,
  'git/list-matching-refs': listMatchingRefs,
  'git/create-ref': createRef,
  'git/update-ref': updateRef,
  'git/delete-ref': deleteRef,
}
