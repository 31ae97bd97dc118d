/**
 * The action as a runner runs it: API requests of one `plan` run, and the time from process start to
 * the first API request against the time `node -e 0` takes, measured in the same run.
 */
import { spawnSync } from 'node:child_process'
import { readFileSync, statSync } from 'node:fs'
import { startEmulator } from '../tests/support/emulator/index.js'
import { issueLabeledEvent } from '../tests/support/events.js'
import { disposeRuns, runAction } from '../tests/support/runner.js'
import { fmt, table } from './measure.js'

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
    const start = process.hrtime.bigint()
    spawnSync(process.execPath, ['-e', '0'])
    nodeBaseline.push(Number(process.hrtime.bigint() - start) / 1e6)
    await disposeRuns()
    await gh.close()
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
  const bundle = statSync(new URL('../dist/index.js', import.meta.url)).size
  return [
    `Action: one plan run on the converge:plan label: ${requests.length} API requests (aim: at most 8)`,
    ...requests.map((r, i) => `  ${i + 1}. ${r}`),
    '',
    table(
      ['', 'median of 5 (ms)'],
      [
        ['node dist/index.js: start → first API request', fmt(median(firstRequest))],
        ['node -e 0: start → exit', fmt(median(nodeBaseline))],
        ['our overhead before the first request', fmt(median(firstRequest) - median(nodeBaseline))],
      ],
    ),
    `Bundle: dist/index.js ${(bundle / 1e6).toFixed(2)} MB (aim: under 1.5 MB)`,
  ].join('\n')
}
