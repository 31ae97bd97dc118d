/**
 * # GitHub API emulator for tests
 *
 * A real HTTP server on 127.0.0.1 (a free port) that answers like api.github.com for one repository: REST, checked
 * against GitHub's OpenAPI description, and GraphQL, checked against GitHub's schema. Git data lives in a real bare
 * repository (`gh.repoDir`), so `git` can inspect what the code under test wrote.
 *
 * ```ts
 * const gh = await startEmulator({ owner: 'octo-org', repo: 'demo', files: { 'README.md': '# demo\n' } })
 * process.env.GITHUB_API_URL = gh.url              // REST base
 * process.env.GITHUB_GRAPHQL_URL = gh.graphqlUrl   // `${gh.url}/graphql`
 * process.env.GITHUB_TOKEN = gh.token              // acts as github-actions[bot] (so does any unregistered token)
 * gh.seed.issue({ number: 42, title: 'Add login', labels: ['converge:plan'] })
 * gh.seed.comment({ issue: 42, body: '/converge plan', user: 'alice' })
 * gh.seed.subIssue(40, 42)                         // #42 is a sub-issue of #40 (`gh.state.subIssues(40)`)
 * gh.seed.blockedBy(42, 41)                        // #42 is blocked by #41 (`gh.state.blockedBy(42)`)
 * gh.seed.permission('alice', 'write')
 * gh.seed.token('alice-token', 'alice')            // requests with this token act as alice
 * await gh.seed.branch('feature')                  // git seeds are async: commit, branch, pullRequest
 * // … run the code under test …
 * expect(gh.state.comments(42)).toHaveLength(1)
 * expect(await gh.state.readFile('converge/state', '.converge/state.json')).toContain('"status"')
 * gh.expectNoViolations()                          // nothing the code sent would GitHub have refused
 * await gh.close()
 * ```
 *
 * - `gh.requests` logs every request: method, path, query, status, `notModified` (a 304), the OpenAPI `operationId`
 *   (REST) or the operation and root fields (GraphQL), the actor, an injected fault.
 * - `gh.violations` lists what GitHub would not accept (unknown route or method, a body failing the requestBody
 *   schema, an invalid GraphQL document), real operations or GraphQL fields the emulator does not serve
 *   (`not-emulated`), and emulator bugs (an answer breaking the response schema, a handler that threw).
 *   `gh.expectNoViolations()` throws with a readable list. (GitHub's description writes `oneOf` for overlapping
 *   alternatives; they are checked as `anyOf`.)
 * - `gh.faults.inject({ kind: '502', times: 2, match: (r) => r.operationId === 'issues/create-comment' })` and
 *   `gh.faults.randomly({ rate: 0.1, kinds: ['500', 'reset'], seed: 1 })` inject failures: `500`, `502`,
 *   `secondary-rate-limit` (403 + retry-after), `429`, `reset` (the socket is dropped), `slow` (`delayMs`, default
 *   250), `stale-head` (another commit lands on the target branch just before a ref update or createCommitOnBranch,
 *   so its compare-and-swap fails), `not-found` (a 404, as a GitHub without the endpoint answers). Error faults answer
 *   before the request is handled: they never change state.
 *   `gh.faults.injected` counts them, `gh.faults.history` lists them, `gh.faults.clear()` stops them.
 * - `gh.rateLimit.used` counts the REST requests that cost rate limit (a 304 and GET /rate_limit are free, as are
 *   faulted requests); `gh.rateLimit.graphqlUsed` the GraphQL ones. Answers carry `x-ratelimit-*` headers.
 * - GitHub's description and schema are loaded once per process; later emulators start in a few tens of ms.
 *
 * ## git over HTTP
 *
 * `gh.gitUrl` (`${gh.url}/{owner}/{repo}.git`, on the same server) serves git's smart HTTP protocol like
 * https://github.com/{owner}/{repo}.git, answered by the real `git http-backend` on `gh.repoDir`, so code under test can
 * `git clone` / `fetch` / `push` with `GITHUB_SERVER_URL = gh.url`:
 *
 * ```ts
 * // what actions/checkout configures: an extraheader with Basic credentials whose password is the token
 * execFile('git', ['clone', gh.gitUrl, dir], { env: { ...process.env, ...gh.gitAuthEnv('alice-token') } })
 * expect(gh.pushes).toEqual([{ actor: 'alice', refs: [{ ref: 'refs/heads/feature', before: null, after: sha }] }])
 * ```
 *
 * - `gh.gitAuthEnv(token = gh.token)` gives `GIT_CONFIG_COUNT=1`, `GIT_CONFIG_KEY_0=http.<gitUrl>.extraheader`,
 *   `GIT_CONFIG_VALUE_0=AUTHORIZATION: basic <base64 x-access-token:token>` (the token never goes in the URL).
 * - Authentication is GitHub's: HTTP Basic, the password is a token (username anything, typically x-access-token; a
 *   registered token acts as its login, any other as github-actions[bot]). Public repositories can be fetched without
 *   credentials; a push without (or with malformed) credentials gets 401 + `WWW-Authenticate: Basic realm="GitHub"`;
 *   a push by an actor without the write permission gets 403; a private repository is 404 to actors without read.
 * - More than one Authorization header gets 400 and a `duplicate-authorization` violation (what GitHub does to an
 *   extraheader added on top of actions/checkout's).
 * - git requests are logged in `gh.requests` with operationId `git/info-refs` (`query.service` tells which),
 *   `git/upload-pack` or `git/receive-pack`; they cost no rate limit and faults do not apply to them.
 * - `gh.pushes` lists the pushes that changed refs: `{ actor, refs: [{ ref, before, after }] }` (null `before`: a
 *   created ref, null `after`: a deleted one). Rejected pushes change nothing and are not listed (the git protocol
 *   reports a rejection inside a 200 answer; a non-fast-forward push is refused by the client before it sends anything).
 * - The REST and GraphQL views read the bare repository, so they see pushed refs at once.
 *
 * ## pull requests and `refs/pull/<n>/head`
 *
 * Every pull request has `refs/pull/<n>/head` at its head commit (fetchable, not pushable, as on GitHub); while a
 * pull request from a branch of this repository is open, the ref follows the branch (kept current before every
 * request is answered). `gh.seed.pullRequest({ …, fork: { owner: 'contributor' }, files: { 'a.txt': 'x' } })`
 * seeds a pull request from the fork `contributor/{repo}`: `head.repo` is that fork (`fork: true`), `head.user` and
 * the pull request's author are its owner, and the head commit (`files` on top of the base branch, or an existing
 * `head.sha`) exists only under `refs/pull/<n>/head`. `files` also works without `fork`: it commits on the head branch.
 */
import { DEFAULT_ACTOR, DEFAULT_ACTOR_ID, DEFAULT_TOKEN, Tokens } from './auth.js'
import { Faults } from './faults.js'
import { GitStore } from './git/git-store.js'
import { Journal, type GitPush, type RequestRecord, type Violation } from './journal.js'
import { loadRouteTable } from './openapi/route-table.js'
import { RateLimitMeter } from './rate-limit.js'
import { Seeder } from './seed.js'
import { startHttpServer } from './server.js'
import { EmulatorState } from './state-view.js'
import type { AccountType } from './store/records.js'
import { RepoStore } from './store/repo-store.js'
import { isoSeconds } from './time.js'

export type { FaultKind, FaultRequest, FaultRule, InjectedFault, RandomFaults } from './faults.js'
export type { GitPush, GraphqlSummary, PushedRef, RequestRecord, Violation, ViolationKind } from './journal.js'
export type { SeedCommit, SeedIssue, SeedPullRequest } from './seed.js'
export type * from './store/records.js'
export { DEFAULT_TOKEN } from './auth.js'
export { FAULT_KINDS } from './faults.js'

export interface EmulatorOptions {
  owner: string
  repo: string
  /** default `main` */
  defaultBranch?: string
  /** account type of the owner (default Organization) */
  ownerType?: Extract<AccountType, 'User' | 'Organization'>
  private?: boolean
  /** files of an initial commit on the default branch */
  files?: Record<string, string>
  /** web address in html_url fields (default https://github.com) */
  htmlUrl?: string
  /** report answers that break GitHub's response schemas as violations (default true) */
  validateResponses?: boolean
}

export interface Emulator {
  /** REST base URL, e.g. http://127.0.0.1:PORT (what GITHUB_API_URL is set to) */
  readonly url: string
  /** `${url}/graphql` (what GITHUB_GRAPHQL_URL is set to) */
  readonly graphqlUrl: string
  /** `${url}/{owner}/{repo}.git`: git's smart HTTP protocol, as at https://github.com/{owner}/{repo}.git */
  readonly gitUrl: string
  /**
   * Environment variables that make git send `token` (default: `token`) to `gitUrl` the way actions/checkout does:
   * an `http.<gitUrl>.extraheader` of Basic credentials `x-access-token:<token>`, through GIT_CONFIG_COUNT/KEY_0/VALUE_0.
   */
  gitAuthEnv(token?: string): Record<string, string>
  /** pushes over HTTP that changed refs, in order */
  readonly pushes: readonly GitPush[]
  /** the bare git repository holding the repository's git data */
  readonly repoDir: string
  /** a token acting as github-actions[bot] (any unregistered token does) */
  readonly token: string
  readonly seed: Seeder
  readonly state: EmulatorState
  readonly requests: readonly RequestRecord[]
  readonly violations: readonly Violation[]
  /** throws with a readable list when `violations` is not empty */
  expectNoViolations(): void
  readonly faults: Pick<Faults, 'inject' | 'randomly' | 'clear' | 'injected' | 'history'>
  readonly rateLimit: Pick<RateLimitMeter, 'used' | 'graphqlUsed' | 'limit'>
  close(): Promise<void>
}

const REPOSITORY_ID = 1296269

export async function startEmulator(options: EmulatorOptions): Promise<Emulator> {
  loadRouteTable()
  const defaultBranch = options.defaultBranch ?? 'main'
  const git = await GitStore.create(defaultBranch)
  const store = new RepoStore({
    id: REPOSITORY_ID,
    owner: options.owner,
    name: options.repo,
    defaultBranch,
    private: options.private ?? false,
    createdAt: isoSeconds(),
  })
  const ownerType = options.ownerType ?? 'Organization'
  store.addUser(options.owner, ownerType)
  if (ownerType === 'User') store.setPermission(options.owner, 'admin')
  store.addUser(DEFAULT_ACTOR, 'Bot', DEFAULT_ACTOR_ID)
  store.setPermission(DEFAULT_ACTOR, 'write')
  store.addUser('github', 'Organization', 9919)
  const tokens = new Tokens()
  const journal = new Journal()
  const faults = new Faults()
  const rateLimit = new RateLimitMeter()
  const seed = new Seeder(store, git, tokens)
  if (options.files !== undefined) await seed.commit({ files: options.files, message: 'Initial commit' })
  const server = await startHttpServer(
    { store, git, journal, faults, rateLimit, tokens, validateResponses: options.validateResponses ?? true },
    options.htmlUrl ?? 'https://github.com',
  )
  const gitUrl = `${server.url}/${options.owner}/${options.repo}.git`
  return {
    url: server.url,
    graphqlUrl: `${server.url}/graphql`,
    gitUrl,
    gitAuthEnv: (token = DEFAULT_TOKEN) => ({
      GIT_CONFIG_COUNT: '1',
      GIT_CONFIG_KEY_0: `http.${gitUrl}.extraheader`,
      GIT_CONFIG_VALUE_0: `AUTHORIZATION: basic ${Buffer.from(`x-access-token:${token}`).toString('base64')}`,
    }),
    pushes: journal.pushes,
    repoDir: git.dir,
    token: DEFAULT_TOKEN,
    seed,
    state: new EmulatorState(store, git),
    requests: journal.requests,
    violations: journal.violations,
    expectNoViolations: () => journal.expectNoViolations(),
    faults,
    rateLimit,
    close: async () => {
      await server.close()
      await git.destroy()
    },
  }
}
