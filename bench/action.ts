/**
 * The action as a runner runs it: API requests of one `plan` run; the time from process start to the first API
 * request, and its start-up alone (start to exit on empty inputs: the bundle loaded, the inputs refused), each
 * against the time `node -e 0` takes, measured in the same run with the same Node and the runner's bare environment
 * (this process's own holds tsx's loader, which `node -e 0` would load too).
 */
import { spawnSync } from 'node:child_process'
import { readFileSync, statSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { startEmulator } from '../tests/support/emulator/index.js'
import { issueLabeledEvent } from '../tests/support/events.js'
import { disposeRuns, runAction } from '../tests/support/runner.js'
import { fmt, table } from './measure.js'

const ACTION_NODE = process.env.CONVERGE_ACTION_NODE || process.execPath
const ACTION_ENTRY = fileURLToPath(new URL('../dist/index.js', import.meta.url))

/** Wall time of `<action node> <args>` in the runner's bare environment, in ms. */
function wallMs(args: string[]): number {
  const start = process.hrtime.bigint()
  spawnSync(ACTION_NODE, args, { env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' }, stdio: 'ignore' })
  return Number(process.hrtime.bigint() - start) / 1e6
}

const nodeVersion = () => spawnSync(ACTION_NODE, ['--version'], { encoding: 'utf8' }).stdout.trim()

const ISSUE = readFileSync(new URL('../examples/demo/issue.md', import.meta.url), 'utf8').replace(/^---[\s\S]*?---\n/, '').replace(/^# .*\n/, '')

export async function benchAction(): Promise<string> {
  const requests: string[] = []
  const firstRequest: number[] = []
  const nodeBaseline: number[] = []
  for (let i = 0; i < 5; i++) {
    const gh = await startEmulator({ owner: 'octo-org', repo: 'demo', files: { 'README.md': '# demo\n' }, validateResponses: false })
    gh.seed.user({ login: 'alice' })
    gh.seed.permission('alice', 'write')
    gh.seed.issue({ number: 42, title: 'Accent-safe slugs and a truncate helper', body: ISSUE, labels: ['converge:plan'] })
    const run = await runAction({ gh, event: issueLabeledEvent({ gh, issue: 42, label: 'converge:plan', sender: 'alice' }) })
    if (run.exitCode !== 0) throw new Error(`plan run failed: ${run.errors.join('; ')}`)
    if (i === 0) requests.push(...gh.requests.map((r) => `${r.method} ${r.graphql ? `graphql ${r.graphql.fields.join(', ')}` : r.operationId}`))
    firstRequest.push(run.timeToFirstRequestMs!)
    await disposeRuns()
    await gh.close()
  }
  // Alternated, so that a slower moment of the machine weighs on both.
  const startUp: number[] = []
  for (let i = 0; i < 15; i++) {
    nodeBaseline.push(wallMs(['-e', '0']))
    startUp.push(wallMs([ACTION_ENTRY]))
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
  const bundle = statSync(ACTION_ENTRY).size
  return [
    `Action: one plan run on the converge:plan label: ${requests.length} API requests (aim: at most 8)`,
    ...requests.map((r, i) => `  ${i + 1}. ${r}`),
    '',
    table(
      [`${process.env.CONVERGE_ACTION_NODE ? 'CONVERGE_ACTION_NODE' : 'this Node'} (${nodeVersion()})`, 'ms'],
      [
        ['node dist/index.js, a plan run: start → first API request (median of 5)', fmt(median(firstRequest))],
        ['node dist/index.js, empty inputs: start → exit (median of 15)', fmt(median(startUp))],
        ['node -e 0: start → exit (median of 15)', fmt(median(nodeBaseline))],
        ['start-up: empty inputs over node -e 0 (aim: at most 150)', fmt(median(startUp) - median(nodeBaseline))],
        ['a plan run\'s first request over node -e 0', fmt(median(firstRequest) - median(nodeBaseline))],
      ],
    ),
    `Bundle: dist/index.js ${(bundle / 1e6).toFixed(2)} MB (aim: under 1.5 MB)`,
  ].join('\n')
}
