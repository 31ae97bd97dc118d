import { randomUUID } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { isoSeconds } from '../time.js'
import { GitCommandError, gitSucceeds, runGit, type GitRunOptions } from './git-cli.js'
import { RefLocks } from './ref-locks.js'

const ZERO_SHA = '0000000000000000000000000000000000000000'

export type GitObjectType = 'blob' | 'tree' | 'commit' | 'tag'

export interface GitObject {
  sha: string
  type: GitObjectType
  size: number
  content: Buffer
}

export interface Signature {
  name: string
  email: string
  /** ISO 8601, second precision, e.g. 2024-01-01T00:00:00Z */
  date: string
}

export interface CommitData {
  sha: string
  tree: string
  parents: string[]
  author: Signature
  committer: Signature
  message: string
}

export interface TreeEntry {
  /** octal mode as git prints it: 100644, 100755, 040000, 120000, 160000 */
  mode: string
  type: 'blob' | 'tree' | 'commit'
  sha: string
  /** byte size of blobs, null for trees and submodules */
  size: number | null
  path: string
}

/** One change applied on top of a base tree when writing a new tree. */
export type TreeChange =
  | { path: string; mode: string; type: 'blob' | 'commit'; sha: string }
  | { path: string; type: 'tree'; sha: string }
  | { path: string; delete: true }

export type RefUpdateOutcome = 'updated' | 'missing' | 'not-fast-forward' | 'unknown-object'

const SHA_PATTERN = /^[0-9a-f]{40}$/

export function isSha(value: string): boolean {
  return SHA_PATTERN.test(value)
}

/**
 * The repository's git data, held in a real bare repository that the emulator drives with `git`.
 * Ref writes go through a per-ref lock and `git update-ref <ref> <new> <old>`, so each one is a compare-and-swap.
 */
export class GitStore {
  private readonly locks = new RefLocks()
  private indexCounter = 0

  private constructor(readonly dir: string) {}

  static async create(defaultBranch: string): Promise<GitStore> {
    const dir = await mkdtemp(join(tmpdir(), 'converge-emulator-'))
    const store = new GitStore(join(dir, 'repo.git'))
    await runGit(store.dir, ['init', '--quiet', '--bare', `--initial-branch=${defaultBranch}`, store.dir])
    return store
  }

  async destroy(): Promise<void> {
    await rm(join(this.dir, '..'), { recursive: true, force: true })
  }

  /** Runs `section` while holding the lock of `ref`; every ref write of the emulator happens inside one. */
  withRefLock<T>(ref: string, section: () => Promise<T>): Promise<T> {
    return this.locks.run(ref, section)
  }

  async writeBlob(content: Buffer): Promise<string> {
    return (await this.git(['hash-object', '-w', '--stdin'], { input: content })).toString('utf8').trim()
  }

  /** Reads an object by git revision expression (`<sha>`, `main:path/to/file`, `refs/heads/x`); null when missing. */
  async readObject(expression: string): Promise<GitObject | null> {
    if (/[\n\r]/.test(expression)) return null
    const output = await this.git(['cat-file', '--batch'], { input: `${expression}\n` })
    const headerEnd = output.indexOf(0x0a)
    const [sha, type, size] = output.subarray(0, headerEnd).toString('utf8').split(' ')
    if (type === 'missing' || type === 'ambiguous' || sha === undefined || size === undefined) return null
    const byteSize = Number(size)
    return {
      sha,
      type: type as GitObjectType,
      size: byteSize,
      content: output.subarray(headerEnd + 1, headerEnd + 1 + byteSize),
    }
  }

  async objectType(sha: string): Promise<GitObjectType | null> {
    if (!isSha(sha)) return null
    try {
      return (await this.git(['cat-file', '-t', sha])).toString('utf8').trim() as GitObjectType
    } catch (error) {
      if (error instanceof GitCommandError) return null
      throw error
    }
  }

  /** Entries of a tree (or of the tree of a commit); `recursive` also lists the subtrees themselves, like GitHub. */
  async listTree(treeish: string, options: { recursive?: boolean } = {}): Promise<TreeEntry[]> {
    const args = ['ls-tree', '-z', '--long']
    if (options.recursive) args.push('-r', '-t')
    const output = (await this.git([...args, '--end-of-options', treeish])).toString('utf8')
    return output
      .split('\0')
      .filter((line) => line.length > 0)
      .map((line) => {
        const tab = line.indexOf('\t')
        const [mode, type, sha, size] = line.slice(0, tab).split(/ +/)
        return {
          mode: mode!,
          type: type as TreeEntry['type'],
          sha: sha!,
          size: size === '-' || size === undefined ? null : Number(size),
          path: line.slice(tab + 1),
        }
      })
  }

  /** Writes the tree `base` (or an empty tree) with `changes` applied; returns the new tree's sha. */
  async writeTree(base: string | null, changes: readonly TreeChange[]): Promise<string> {
    const indexFile = join(this.dir, `emulator-index-${++this.indexCounter}-${randomUUID()}`)
    const env = { GIT_INDEX_FILE: indexFile, GIT_LITERAL_PATHSPECS: '1' }
    const inIndex = (args: string[], input?: string) => this.git(args, { env, input })
    try {
      await inIndex(base === null ? ['read-tree', '--empty'] : ['read-tree', base])
      const replacedPaths = changes.filter((change) => 'delete' in change || change.type === 'tree').map((c) => c.path)
      if (replacedPaths.length > 0) {
        const existing = (await inIndex(['ls-files', '-z', '--', ...replacedPaths])).toString('utf8').split('\0')
        const removals = existing.filter((path) => path.length > 0).map((path) => `0 ${ZERO_SHA}\t${path}\0`)
        if (removals.length > 0) await inIndex(['update-index', '-z', '--index-info'], removals.join(''))
      }
      const additions = changes.flatMap((change) =>
        'delete' in change || change.type === 'tree' ? [] : [`${change.mode} ${change.sha}\t${change.path}\0`],
      )
      // -z: NUL-terminated entries, so paths are taken literally (git would unquote "a".txt otherwise).
      if (additions.length > 0) await inIndex(['update-index', '-z', '--add', '--replace', '--index-info'], additions.join(''))
      for (const change of changes) {
        if (!('delete' in change) && change.type === 'tree') {
          await inIndex(['read-tree', `--prefix=${change.path}/`, change.sha])
        }
      }
      return (await inIndex(['write-tree'])).toString('utf8').trim()
    } finally {
      await rm(indexFile, { force: true })
    }
  }

  async writeCommit(commit: {
    tree: string
    parents: readonly string[]
    message: string
    author: Signature
    committer?: Signature
  }): Promise<string> {
    const committer = commit.committer ?? commit.author
    const args = ['commit-tree', commit.tree, ...commit.parents.flatMap((parent) => ['-p', parent]), '-F', '-']
    const env = {
      GIT_AUTHOR_NAME: commit.author.name,
      GIT_AUTHOR_EMAIL: commit.author.email,
      GIT_AUTHOR_DATE: commit.author.date,
      GIT_COMMITTER_NAME: committer.name,
      GIT_COMMITTER_EMAIL: committer.email,
      GIT_COMMITTER_DATE: committer.date,
    }
    return (await this.git(args, { input: commit.message, env })).toString('utf8').trim()
  }

  async readCommit(sha: string): Promise<CommitData | null> {
    const object = await this.readObject(sha)
    if (object === null || object.type !== 'commit') return null
    const text = object.content.toString('utf8')
    const split = text.indexOf('\n\n')
    const headers = (split === -1 ? text : text.slice(0, split)).split('\n')
    const data: CommitData = {
      sha: object.sha,
      tree: '',
      parents: [],
      author: { name: '', email: '', date: '' },
      committer: { name: '', email: '', date: '' },
      message: split === -1 ? '' : text.slice(split + 2),
    }
    for (const header of headers) {
      const space = header.indexOf(' ')
      const key = header.slice(0, space)
      const value = header.slice(space + 1)
      if (key === 'tree') data.tree = value
      else if (key === 'parent') data.parents.push(value)
      else if (key === 'author') data.author = parseSignature(value)
      else if (key === 'committer') data.committer = parseSignature(value)
    }
    return data
  }

  /** Whether `ref` is a well-formed full ref name (`git check-ref-format`). */
  async isValidRefName(ref: string): Promise<boolean> {
    return gitSucceeds(this.dir, ['check-ref-format', ref])
  }

  async isAncestor(ancestor: string, descendant: string): Promise<boolean> {
    return gitSucceeds(this.dir, ['merge-base', '--is-ancestor', ancestor, descendant])
  }

  /** The sha a fully qualified ref (`refs/heads/main`) points to, or null. */
  async resolveRef(ref: string): Promise<string | null> {
    if (!ref.startsWith('refs/')) return null
    try {
      const line = (await this.git(['show-ref', '--verify', ref])).toString('utf8')
      return line.split(' ')[0] ?? null
    } catch (error) {
      if (error instanceof GitCommandError) return null
      throw error
    }
  }

  /** Refs whose full name starts with `prefix` (e.g. `refs/heads/feat`), sorted by name. */
  async listRefs(prefix: string): Promise<Array<{ ref: string; sha: string; type: GitObjectType }>> {
    const output = (await this.git(['for-each-ref', '--format=%(objectname) %(objecttype) %(refname)', 'refs/'])).toString('utf8')
    return output
      .split('\n')
      .filter((line) => line.length > 0)
      .map((line) => {
        const [sha, type, ref] = line.split(' ')
        return { sha: sha!, type: type as GitObjectType, ref: ref! }
      })
      .filter((entry) => entry.ref.startsWith(prefix))
  }

  /** Creates `ref` at `sha`; false when the ref already exists. */
  async createRef(ref: string, sha: string): Promise<boolean> {
    return this.withRefLock(ref, async () => {
      if ((await this.resolveRef(ref)) !== null) return false
      await this.git(['update-ref', ref, sha, ZERO_SHA])
      return true
    })
  }

  /** Moves `ref` to `sha`; without `force` the move must be a fast-forward. */
  async updateRef(ref: string, sha: string, options: { force: boolean }): Promise<RefUpdateOutcome> {
    return this.withRefLock(ref, async () => {
      const current = await this.resolveRef(ref)
      if (current === null) return 'missing'
      if ((await this.objectType(sha)) !== 'commit') return 'unknown-object'
      if (!options.force && !(await this.isAncestor(current, sha))) return 'not-fast-forward'
      await this.git(['update-ref', ref, sha, current])
      return 'updated'
    })
  }

  /** Moves `ref` from `expected` to `sha` (compare-and-swap); the caller must hold the ref's lock. */
  async compareAndSwapRef(ref: string, sha: string, expected: string | null): Promise<boolean> {
    try {
      await this.git(['update-ref', ref, sha, expected ?? ZERO_SHA])
      return true
    } catch (error) {
      if (error instanceof GitCommandError) return false
      throw error
    }
  }

  async deleteRef(ref: string): Promise<boolean> {
    return this.withRefLock(ref, async () => {
      const current = await this.resolveRef(ref)
      if (current === null) return false
      await this.git(['update-ref', '-d', ref, current])
      return true
    })
  }

  private git(args: readonly string[], options: GitRunOptions = {}) {
    return runGit(this.dir, args, options)
  }
}

function parseSignature(value: string): Signature {
  const match = /^(.*) <(.*)> (\d+) ([+-]\d{4})$/.exec(value)
  if (match === null) return { name: value, email: '', date: '' }
  return { name: match[1]!, email: match[2]!, date: isoSeconds(new Date(Number(match[3]) * 1000)) }
}
