/** JSON shapes of GitHub's answers about git data (refs, commits, trees, blobs, branches, file contents). */
import type { CommitData, GitObject, GitObjectType, TreeEntry } from '../git/git-store.js'
import { nodeId, type Urls } from '../store/urls.js'

/** Base64 split into lines of 60 characters, as GitHub returns blob and file contents. */
export function wrappedBase64(content: Buffer): string {
  return (content.toString('base64').match(/.{1,60}/g) ?? []).map((line) => `${line}\n`).join('')
}

export function gitRefShape(urls: Urls, ref: string, sha: string, type: GitObjectType) {
  return {
    ref,
    node_id: nodeId('Ref', ref),
    url: urls.repoApi(`/git/${ref}`),
    object: { sha, type, url: urls.repoApi(`/git/${type}s/${sha}`) },
  }
}

const UNSIGNED = { verified: false, reason: 'unsigned', signature: null, payload: null, verified_at: null }

export function gitCommitShape(urls: Urls, commit: CommitData) {
  return {
    sha: commit.sha,
    node_id: nodeId('Commit', commit.sha),
    url: urls.repoApi(`/git/commits/${commit.sha}`),
    html_url: urls.repoHtml(`/commit/${commit.sha}`),
    author: commit.author,
    committer: commit.committer,
    tree: { sha: commit.tree, url: urls.repoApi(`/git/trees/${commit.tree}`) },
    message: commit.message.replace(/\n$/, ''),
    parents: commit.parents.map((sha) => ({
      sha,
      url: urls.repoApi(`/git/commits/${sha}`),
      html_url: urls.repoHtml(`/commit/${sha}`),
    })),
    verification: UNSIGNED,
  }
}

/** A commit as the repository commits and branches endpoints show it (`commit` schema). */
export function repoCommitShape(urls: Urls, commit: CommitData) {
  return {
    sha: commit.sha,
    node_id: nodeId('Commit', commit.sha),
    url: urls.repoApi(`/commits/${commit.sha}`),
    html_url: urls.repoHtml(`/commit/${commit.sha}`),
    comments_url: urls.repoApi(`/commits/${commit.sha}/comments`),
    commit: {
      url: urls.repoApi(`/git/commits/${commit.sha}`),
      author: commit.author,
      committer: commit.committer,
      message: commit.message.replace(/\n$/, ''),
      comment_count: 0,
      tree: { sha: commit.tree, url: urls.repoApi(`/git/trees/${commit.tree}`) },
      verification: UNSIGNED,
    },
    author: null,
    committer: null,
    parents: commit.parents.map((sha) => ({
      sha,
      url: urls.repoApi(`/commits/${sha}`),
      html_url: urls.repoHtml(`/commit/${sha}`),
    })),
  }
}

function treeEntryShape(urls: Urls, entry: TreeEntry) {
  const kind = entry.type === 'tree' ? 'trees' : 'blobs'
  return {
    path: entry.path,
    mode: entry.mode,
    type: entry.type,
    sha: entry.sha,
    ...(entry.size === null ? {} : { size: entry.size }),
    ...(entry.type === 'commit' ? {} : { url: urls.repoApi(`/git/${kind}/${entry.sha}`) }),
  }
}

export function treeShape(urls: Urls, sha: string, entries: readonly TreeEntry[]) {
  return { sha, url: urls.repoApi(`/git/trees/${sha}`), tree: entries.map((entry) => treeEntryShape(urls, entry)), truncated: false }
}

export function blobShape(urls: Urls, blob: GitObject) {
  return {
    sha: blob.sha,
    node_id: nodeId('Blob', blob.sha),
    size: blob.size,
    url: urls.repoApi(`/git/blobs/${blob.sha}`),
    content: wrappedBase64(blob.content),
    encoding: 'base64',
  }
}

/** One entry of the contents API (`content-file` without `content`, or a directory entry). */
export interface ContentEntry {
  path: string
  sha: string
  size: number
  type: 'file' | 'dir' | 'submodule'
}

export function contentEntryShape(urls: Urls, ref: string, entry: ContentEntry) {
  const encodedPath = entry.path.split('/').map(encodeURIComponent).join('/')
  const self = urls.repoApi(`/contents/${encodedPath}?ref=${encodeURIComponent(ref)}`)
  const git = urls.repoApi(`/git/${entry.type === 'dir' ? 'trees' : 'blobs'}/${entry.sha}`)
  const html = urls.repoHtml(`/${entry.type === 'dir' ? 'tree' : 'blob'}/${ref}/${encodedPath}`)
  return {
    type: entry.type,
    size: entry.size,
    name: entry.path.split('/').pop() ?? entry.path,
    path: entry.path,
    sha: entry.sha,
    url: self,
    git_url: git,
    html_url: html,
    download_url: entry.type === 'file' ? urls.rawFile(ref, encodedPath) : null,
    _links: { self, git, html },
  }
}
