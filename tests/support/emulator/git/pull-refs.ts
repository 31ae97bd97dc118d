import type { RepoStore } from '../store/repo-store.js'
import type { GitStore } from './git-store.js'

/** `refs/pull/<n>/head`: where GitHub keeps the head commit of pull request n in the base repository. */
export function pullHeadRef(number: number): string {
  return `refs/pull/${number}/head`
}

/**
 * Points `refs/pull/<n>/head` at the head of every pull request, as GitHub does. The head of an open pull request
 * whose head branch is in this repository follows the branch (and is remembered in the record, so it survives the
 * branch's deletion); the head of a fork's branch is the recorded sha. The emulator calls this before answering
 * each request and after seeding a pull request or a push, so the refs are current whenever someone looks.
 */
export async function syncPullRefs(store: RepoStore, git: GitStore): Promise<void> {
  const pulls = store.pulls()
  if (pulls.length === 0) return
  const refs = new Map((await git.listRefs('refs/')).map((entry) => [entry.ref, entry.sha]))
  for (const issue of pulls) {
    const pull = issue.pull!
    if (pull.headRepoOwner === undefined && issue.state === 'open') {
      const branchHead = refs.get(`refs/heads/${pull.headRef}`)
      if (branchHead !== undefined) pull.headSha = branchHead
    }
    const ref = pullHeadRef(issue.number)
    const current = refs.get(ref) ?? null
    if (current === pull.headSha) continue
    // A compare-and-swap: when another request moved the ref meanwhile, that one wins. A seeded head sha that is
    // not an object of the store (a made-up sha) cannot be written and is left out.
    await git.withRefLock(ref, () => git.compareAndSwapRef(ref, pull.headSha, current))
  }
}
