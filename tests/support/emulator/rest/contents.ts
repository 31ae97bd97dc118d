import { commitToBranch } from '../git/branch-commits.js'
import type { TreeEntry } from '../git/git-store.js'
import { HttpError, json, notFound } from '../http.js'
import { accountSignature } from '../signature.js'
import { stringParam, type RestContext, type RestHandler } from './context.js'
import { contentEntryShape, gitCommitShape, wrappedBase64 } from './git-shapes.js'

const ENTRY_TYPES: Record<TreeEntry['type'], 'file' | 'dir' | 'submodule'> = { blob: 'file', tree: 'dir', commit: 'submodule' }

/** Attempts of a contents write when another writer moves the branch in between (GitHub retries internally too). */
const WRITE_ATTEMPTS = 5

function contentPath(context: RestContext): string {
  return stringParam(context, 'path').replace(/^\/+|\/+$/g, '')
}

const getContent: RestHandler = async (context) => {
  const { git, urls } = context
  const ref = context.query.get('ref') ?? context.store.repository.defaultBranch
  const path = contentPath(context)
  const object = await git.readObject(`${ref}:${path}`)
  if (object === null) throw notFound()
  if (object.type === 'tree') {
    const entries = await git.listTree(object.sha)
    return json(
      200,
      entries.map((entry) =>
        contentEntryShape(urls, ref, {
          path: path === '' ? entry.path : `${path}/${entry.path}`,
          sha: entry.sha,
          size: entry.size ?? 0,
          type: ENTRY_TYPES[entry.type],
        }),
      ),
    )
  }
  if (/application\/vnd\.github(\.v3)?\.raw/.test(context.headers.accept ?? '')) {
    return { status: 200, raw: { contentType: 'application/vnd.github.raw; charset=utf-8', data: object.content } }
  }
  return json(200, {
    ...contentEntryShape(urls, ref, { path, sha: object.sha, size: object.size, type: 'file' }),
    content: wrappedBase64(object.content),
    encoding: 'base64',
  })
}

interface PutContentInput {
  message: string
  content: string
  sha?: string
  branch?: string
  author?: { name: string; email: string; date?: string }
}

/** Creates or replaces one file with one commit; replacing needs the `sha` of the file being replaced. */
const putContent: RestHandler = async (context) => {
  const { git, store } = context
  const input = context.body as PutContentInput
  const path = contentPath(context)
  const branch = input.branch ?? store.repository.defaultBranch
  const actorSignature = accountSignature(context.actor)
  const author = input.author ? { ...actorSignature, name: input.author.name, email: input.author.email } : actorSignature
  for (let attempt = 0; attempt < WRITE_ATTEMPTS; attempt++) {
    const head = await git.resolveRef(`refs/heads/${branch}`)
    const repositoryIsEmpty = head === null && (await git.listRefs('refs/heads/')).length === 0
    if (head === null && !repositoryIsEmpty) throw notFound('Branch not found')
    const existing = head === null ? null : await git.readObject(`${head}:${path}`)
    if (existing !== null && input.sha === undefined) throw new HttpError(422, 'Invalid request.\n\n"sha" wasn\'t supplied.')
    if (input.sha !== undefined && existing?.sha !== input.sha) throw new HttpError(409, `${path} does not match ${input.sha}`)
    const result = await commitToBranch(git, {
      branch,
      ...(head === null ? { createIfMissing: true } : { expectedHead: head }),
      changes: { additions: [{ path, content: Buffer.from(input.content, 'base64') }], deletions: [] },
      message: input.message,
      author,
    })
    if (result.outcome !== 'committed') continue
    const blob = (await git.readObject(`${result.sha}:${path}`))!
    return json(existing === null ? 201 : 200, {
      content: contentEntryShape(context.urls, branch, { path, sha: blob.sha, size: blob.size, type: 'file' }),
      commit: gitCommitShape(context.urls, (await git.readCommit(result.sha))!),
    })
  }
  throw new HttpError(409, `${path} could not be written: the branch kept moving`)
}

export const contentHandlers: Record<string, RestHandler> = {
  'repos/get-content': getContent,
  'repos/create-or-update-file-contents': putContent,
}
