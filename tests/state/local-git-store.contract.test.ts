import { LocalGitStore } from '../../src/state/local-git-store.js'
import { describeStoreContract } from '../support/store-contract.js'
import { type TempRepo, bareRepo, busyWorkingRepo, countCommits } from '../support/temp-repos.js'

function fixture(repo: TempRepo) {
  const store = new LocalGitStore({ repoDir: repo.dir })
  return {
    store,
    cleanup: repo.cleanup,
    commitCount: () => countCommits(repo, store.branch),
    open: () => new LocalGitStore({ repoDir: repo.dir }),
  }
}

describeStoreContract('LocalGitStore, busy working repository', async () => fixture(await busyWorkingRepo()))
describeStoreContract('LocalGitStore, bare repository', async () => fixture(await bareRepo()))
