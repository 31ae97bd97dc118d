/**
 * The check run `converge / ISS-<n>` on the head commit (SPEC §8): `in_progress` with the progress in its
 * summary while tasks run, then `completed` with a conclusion and the annotations of failing commands.
 *
 * Requests, for a run of N tasks, A annotations and at most K progress updates (`maxUpdates`, default 20):
 *
 *     1 (create) + min(N, K) (progress) + max(1, ⌈A / 50⌉) (completion, then annotation batches)
 *
 * that is `min(N, 20) + 2` without annotations. Progress updates are also never closer together than
 * `minIntervalMs` (default 10 s): the sticky comment uses the same {@link CoalescingUpdater}.
 */
import { CHECK_RUN_TEXT_LIMIT } from '../report/size.js'
import type { Annotation } from '../report/annotations.js'
import type { ClientLog, GitHubClient } from './client.js'
import type { RepoRef } from './issues.js'

/** GitHub refuses a check-run summary or text longer than this. */
export { CHECK_RUN_TEXT_LIMIT }
/** GitHub accepts at most this many annotations per create or update request. */
export const ANNOTATIONS_PER_REQUEST = 50

export type CheckRunConclusion = 'success' | 'failure' | 'neutral' | 'action_required'

export interface CheckRunOutput {
  title: string
  /** Markdown; truncated to {@link CHECK_RUN_TEXT_LIMIT} with a note. */
  summary: string
  /** Markdown shown below the summary; truncated like it. */
  text?: string
}

export interface CoalescingOptions {
  /** Least time between two updates (default 10 s). */
  minIntervalMs?: number
  /** Most updates over a run (default 20), spread evenly over its tasks. */
  maxUpdates?: number
}

export const DEFAULT_COALESCING: Required<CoalescingOptions> = { minIntervalMs: 10_000, maxUpdates: 20 }

export function checkRunName(issueNumber: number): string {
  return `converge / ISS-${issueNumber}`
}

/** The most requests a check run makes: see the formula at the top of this module. */
export function checkRunRequestBound(taskCount: number, annotationCount: number, maxUpdates = DEFAULT_COALESCING.maxUpdates): number {
  return 1 + Math.min(taskCount, maxUpdates) + Math.max(1, Math.ceil(annotationCount / ANNOTATIONS_PER_REQUEST))
}

/**
 * The checks API refused the token (403): it lacks `checks: write`. The caller may carry on without a
 * check run.
 */
export class CheckRunPermissionError extends Error {
  override readonly name = 'CheckRunPermissionError'

  constructor(
    readonly action: 'create' | 'update',
    readonly status: number,
    githubMessage: string,
  ) {
    super(
      `Cannot ${action} the check run: GitHub answered ${status} (${githubMessage}). The token needs the "checks: write" ` +
        'permission: add `checks: write` under `permissions:` in the workflow (personal access tokens cannot write check runs).',
    )
  }
}

/**
 * Sends the latest of a stream of values (progress reports) at a bounded rate: for a run of `taskCount` tasks,
 * at most min(taskCount, maxUpdates) sends, one per ⌈taskCount / maxUpdates⌉ tasks done, never two within
 * `minIntervalMs` (a value held back by the interval is sent when it has passed, unless a newer one replaced it),
 * never two at once. A failed send goes to `onError` (which must not throw); the next send carries newer
 * progress anyway.
 */
export class CoalescingUpdater<T> {
  private readonly minIntervalMs: number
  private readonly tasksPerUpdate: number
  private latest: { value: T; done: number } | undefined
  private inFlight: Promise<void> | undefined
  private timer: NodeJS.Timeout | undefined
  private lastSentAt = -Infinity
  private stopped = false
  private sends = 0

  constructor(
    private readonly send: (value: T) => Promise<void>,
    private readonly taskCount: number,
    private readonly onError: (error: unknown) => void,
    options: CoalescingOptions = {},
  ) {
    const { minIntervalMs, maxUpdates } = { ...DEFAULT_COALESCING, ...options }
    this.minIntervalMs = minIntervalMs
    this.tasksPerUpdate = maxUpdates > 0 ? Math.max(1, Math.ceil(taskCount / maxUpdates)) : Infinity
  }

  /** Values sent so far (failed sends included). */
  get sent(): number {
    return this.sends
  }

  /** The newest value to show, after `done` of the run's tasks finished. */
  offer(value: T, done: number): void {
    if (this.stopped) return
    this.latest = { value, done }
    this.pump()
  }

  /** Resolves when no send is in flight. */
  async idle(): Promise<void> {
    while (this.inFlight) await this.inFlight
  }

  /** Drops what is not sent yet and waits for the send in flight: nothing is sent afterwards. */
  async stop(): Promise<void> {
    this.stopped = true
    this.latest = undefined
    clearTimeout(this.timer)
    this.timer = undefined
    await this.idle()
  }

  private pump(): void {
    const latest = this.latest
    if (this.inFlight || this.timer || latest === undefined) return
    if (this.sends >= Math.floor(Math.min(latest.done, this.taskCount) / this.tasksPerUpdate)) return
    const wait = this.lastSentAt + this.minIntervalMs - Date.now()
    if (wait > 0) {
      this.timer = setTimeout(() => {
        this.timer = undefined
        this.pump()
      }, wait)
      this.timer.unref()
      return
    }
    this.latest = undefined
    this.sends++
    this.lastSentAt = Date.now()
    this.inFlight = this.send(latest.value)
      .catch(this.onError)
      .finally(() => {
        this.inFlight = undefined
        this.pump()
      })
  }
}

export interface StartCheckRunOptions {
  issueNumber: number
  headSha: string
  /** Tasks in the run: progress updates are spread over them. */
  taskCount: number
  output: CheckRunOutput
  detailsUrl?: string
  progress?: CoalescingOptions
  /** Where failed progress updates are reported (they never stop the run). */
  log?: Pick<ClientLog, 'warning'>
}

export interface CheckRunResult {
  conclusion: CheckRunConclusion
  output: CheckRunOutput
  annotations?: Annotation[]
}

/** A Converge check run from `in_progress` to `completed`. */
export class CheckRun {
  private readonly progressUpdates: CoalescingUpdater<CheckRunOutput>

  private constructor(
    private readonly client: GitHubClient,
    private readonly repo: RepoRef,
    readonly id: number,
    readonly url: string | undefined,
    options: StartCheckRunOptions,
  ) {
    const log = options.log ?? { warning: (message: string) => process.emitWarning(message) }
    this.progressUpdates = new CoalescingUpdater(
      (output) => this.update({ output: githubOutput(output) }),
      options.taskCount,
      (error) => log.warning(`Check run progress not updated: ${error instanceof Error ? error.message : String(error)}`),
      options.progress,
    )
  }

  /** Creates the check run, `in_progress`, on `headSha`. */
  static async start(client: GitHubClient, repo: RepoRef, options: StartCheckRunOptions): Promise<CheckRun> {
    const { data } = await checksCall('create', () =>
      client.rest.checks.create({
        ...repo,
        name: checkRunName(options.issueNumber),
        head_sha: options.headSha,
        status: 'in_progress',
        started_at: new Date().toISOString(),
        output: githubOutput(options.output),
        ...(options.detailsUrl ? { details_url: options.detailsUrl } : {}),
      }),
    )
    return new CheckRun(client, repo, data.id, data.html_url ?? undefined, options)
  }

  /** Progress after `done` tasks finished: shown when the coalescing allows, or replaced by newer progress. */
  progress(output: CheckRunOutput, done: number): void {
    this.progressUpdates.offer(output, done)
  }

  /** Progress updates sent so far. */
  get progressSent(): number {
    return this.progressUpdates.sent
  }

  /** Resolves when no progress update is in flight. */
  idle(): Promise<void> {
    return this.progressUpdates.idle()
  }

  /**
   * Completes the run: the conclusion, the final output and the first 50 annotations in one request, the
   * other annotations 50 per following request (GitHub appends them). Progress not sent yet is dropped.
   */
  async complete(result: CheckRunResult): Promise<void> {
    await this.progressUpdates.stop()
    const output = githubOutput(result.output)
    const [first, ...rest] = batches(result.annotations ?? [], ANNOTATIONS_PER_REQUEST)
    await this.update({
      status: 'completed',
      conclusion: result.conclusion,
      completed_at: new Date().toISOString(),
      output: { ...output, ...(first ? { annotations: first } : {}) },
    })
    for (const annotations of rest) await this.update({ output: { title: output.title, summary: output.summary, annotations } })
  }

  private async update(fields: CheckRunUpdate): Promise<void> {
    await checksCall('update', () => this.client.rest.checks.update({ ...this.repo, check_run_id: this.id, ...fields }))
  }
}

interface CheckRunUpdate {
  status?: 'completed'
  conclusion?: CheckRunConclusion
  completed_at?: string
  output: CheckRunOutput & { annotations?: Annotation[] }
}

function githubOutput(output: CheckRunOutput): CheckRunOutput {
  return {
    title: output.title,
    summary: fitText(output.summary),
    ...(output.text === undefined ? {} : { text: fitText(output.text) }),
  }
}

/** `text` cut to GitHub's limit, ending with a note that says how much was left out. */
export function fitText(text: string, limit = CHECK_RUN_TEXT_LIMIT): string {
  if (text.length <= limit) return text
  const note = (omitted: number) => `\n\n… truncated: ${omitted.toLocaleString('en-US')} characters omitted (GitHub allows ${limit.toLocaleString('en-US')}).`
  let keep = limit - note(text.length).length
  if (/[\uD800-\uDBFF]/.test(text[keep - 1] ?? '')) keep-- // never split a surrogate pair
  return text.slice(0, keep) + note(text.length - keep)
}

function batches<T>(items: T[], size: number): T[][] {
  return Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size))
}

/** Runs a checks API call; a 403 that is not a rate limit becomes a {@link CheckRunPermissionError}. */
async function checksCall<R>(action: 'create' | 'update', call: () => Promise<R>): Promise<R> {
  try {
    return await call()
  } catch (error) {
    const { status, message } = error as { status?: number; message?: string }
    if (status === 403 && !/rate limit/i.test(message ?? '')) throw new CheckRunPermissionError(action, status, message ?? 'Forbidden')
    throw error
  }
}

export interface PublishCheckRunOptions {
  issueNumber: number
  headSha: string
  title: string
  summary: string
  /** Absent: the check run is left `in_progress`. */
  conclusion?: CheckRunConclusion
  detailsUrl?: string
  /** On the lines the execution's commands failed on: the first 50 with the run, the others 50 per request after. */
  annotations?: Annotation[]
}

/**
 * A check run that needs no progress updates (after planning, approving, pausing …), in one request (and one per
 * 50 annotations beyond the first 50): created `completed` with its conclusion, or `in_progress` when there is none yet.
 */
export async function publishCheckRun(client: GitHubClient, repo: RepoRef, options: PublishCheckRunOptions): Promise<{ id: number; url: string | undefined }> {
  const now = new Date().toISOString()
  const output = githubOutput({ title: options.title, summary: options.summary })
  const [first, ...rest] = batches(options.annotations ?? [], ANNOTATIONS_PER_REQUEST)
  const { data } = await checksCall('create', () =>
    client.rest.checks.create({
      ...repo,
      name: checkRunName(options.issueNumber),
      head_sha: options.headSha,
      output: { ...output, ...(first ? { annotations: first } : {}) },
      ...(options.conclusion
        ? { status: 'completed' as const, conclusion: options.conclusion, started_at: now, completed_at: now }
        : { status: 'in_progress' as const, started_at: now }),
      ...(options.detailsUrl ? { details_url: options.detailsUrl } : {}),
    }),
  )
  for (const annotations of rest)
    await checksCall('update', () => client.rest.checks.update({ ...repo, check_run_id: data.id, output: { ...output, annotations } }))
  return { id: data.id, url: data.html_url ?? undefined }
}
