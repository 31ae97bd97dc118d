/**
 * `converge sync`: the open issues into the local state branch's run state, and the queue rebuilt — from a folder
 * of issue files (`--issues`), or from GitHub (`--github owner/repo`, the action's own `sync`).
 */
import { readdir, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { createGitHubClient } from '../../github/client.js'
import { RunStateSchema } from '../../model/index.js'
import { syncIssueDocuments, syncIssues } from '../../pipeline/sync.js'
import type { IssueDocument } from '../../planners/types.js'
import { statePaths } from '../../model/state-layout.js'
import { readStateJson } from '../../state/state-files.js'
import { readIssueFile } from '../issue-file.js'
import { printDocument, type Output } from '../output.js'
import { InputError, UsageError } from '../usage-error.js'
import { storeOf, type IssueArgs } from './issue.js'

export interface SyncArgs extends IssueArgs {
  issues?: string
  github?: string
  label?: string
  /** Where the token and the API's address come from (the process's environment). */
  env: Record<string, string | undefined>
}

const DEFAULT_API_URL = 'https://api.github.com'

export async function syncCommand(args: SyncArgs, output: Output): Promise<number> {
  if ((args.issues === undefined) === (args.github === undefined))
    throw new UsageError('sync needs one source: converge sync --issues <folder> (issue files), or converge sync --github <owner/repo>')
  if (args.label !== undefined && args.github === undefined) throw new UsageError('--label goes with --github (a folder holds only the issues to sync)')
  // What is given is checked before the repository is: a missing folder, a malformed name or no token says so first.
  const documents = args.issues !== undefined ? await issueFolder(args.issues) : undefined
  const github = args.github !== undefined ? gitHubSource(args.github, args.env) : undefined
  const store = await storeOf(args)
  const now = new Date().toISOString()
  const result = documents
    ? await syncIssueDocuments(store, documents, { now })
    : await syncIssues(store, github!.client, github!.repo, { ...(args.label ? { label: args.label } : {}), now })
  const source = documents ? { issues: args.issues!, files: documents.length } : { github: args.github!, label: args.label ?? null }
  const run = await readStateJson(await store.snapshot([statePaths.runState]), statePaths.runState, RunStateSchema)
  if (output.json) {
    printDocument(output.io, { source, ...result, queue: { ...result.queue, order: run?.queue ?? [] } })
    return 0
  }
  const count = 'issues' in source ? source.files : result.total
  const what = 'issues' in source ? `issue file${count === 1 ? '' : 's'} in ${source.issues}` : `open issue${count === 1 ? '' : 's'} of ${source.github}`
  const gone = 'issues' in source ? 'removed' : 'closed'
  const { queue } = result
  output.io.out([
    result.unchanged
      ? `Sync: nothing changed (${count} ${what})`
      : `Sync: ${count} ${what} (+${result.added} new, ${result.updated} updated, -${result.removed} ${gone})${result.commit ? `; ${store.branch} @ ${result.commit.slice(0, 12)}` : ''}`,
    `Queue: ${queue.items} solution${queue.items === 1 ? '' : 's'} in ${queue.groups} group${queue.groups === 1 ? '' : 's'}` +
      `${queue.queued ? ` (${queue.queued} newly queued)` : ''}${queue.left ? `, ${queue.left} left` : ''}${queue.skipped ? `; ${queue.skipped} left out (their plan could not be read)` : ''}` +
      '. converge status shows the order and why; issues not planned yet: converge plan --issue-file <issue.md>',
  ].join('\n'))
  return 0
}

/** The repository and a client for GitHub's API, with the token and the address the environment gives. */
function gitHubSource(name: string, env: SyncArgs['env']) {
  const repo = /^([\w.-]+)\/([\w.-]+)$/.exec(name)
  if (!repo) throw new UsageError(`--github ${name}: name the repository as owner/repo`)
  const token = env.GITHUB_TOKEN || env.GH_TOKEN
  if (!token) throw new UsageError('sync --github needs a token that can read the issues: set GITHUB_TOKEN (or GH_TOKEN)')
  const client = createGitHubClient({ token, apiUrl: env.GITHUB_API_URL || DEFAULT_API_URL, ...(env.GITHUB_GRAPHQL_URL ? { graphqlUrl: env.GITHUB_GRAPHQL_URL } : {}) })
  return { client, repo: { owner: repo[1]!, repo: repo[2]! } }
}

/** Every issue file (`*.md`) of the folder, read as `plan --issue-file` reads one; two files may not be the same issue. */
async function issueFolder(dir: string): Promise<IssueDocument[]> {
  const info = await stat(dir).catch(() => undefined)
  if (!info) throw new UsageError(`--issues ${dir}: no such folder`)
  if (!info.isDirectory()) throw new UsageError(`--issues ${dir} is a file: point --issues at the folder of issue files (*.md)`)
  const names = (await readdir(dir)).filter((name) => name.endsWith('.md')).sort()
  const documents: IssueDocument[] = []
  const fileOf = new Map<number, string>()
  for (const name of names) {
    const document = await readIssueFile(join(dir, name))
    const other = fileOf.get(document.number)
    if (other) throw new InputError(`${join(dir, other)} and ${join(dir, name)} are both issue ${document.number}: give each its number (number: in front matter, or in the file name)`)
    fileOf.set(document.number, name)
    documents.push(document)
  }
  return documents
}
