/**
 * `npm run bench [-- --full] [-- only=dag|planner-corpus|board|…]`: prints each benchmark as a table with ratios against a
 * baseline measured in the same run. `sync` (10,000 issues through the emulator, a minute or so) runs only
 * when asked for: `only=sync`, or `--full`.
 */
import { benchAction } from './action.js'
import { benchApi } from './api.js'
import { benchBoard } from './board.js'
import { benchDag } from './dag.js'
import { benchEvidence } from './evidence.js'
import { benchReports } from './reports.js'
import { benchSchedule } from './schedule.js'
import { benchSync } from './sync.js'

const args = process.argv.slice(2)
const full = args.includes('--full')
const only = args.find((a) => a.startsWith('only='))?.slice(5)

const benches: Record<string, () => string | Promise<string>> = {
  dag: () => benchDag({ full }),
  api: () => benchApi(),
  action: () => benchAction(),
  reports: () => benchReports(),
  schedule: () => benchSchedule(),
  evidence: () => benchEvidence(),
  sync: () => benchSync(),
  board: () => benchBoard(),
  'planner-corpus': async () => (await import('./planner-corpus.js')).benchPlannerCorpus(),
}
const OPT_IN = new Set(['sync'])

for (const [name, run] of Object.entries(benches)) {
  if (only ? only !== name : OPT_IN.has(name) && !full) continue
  console.log(`${await run()}\n`)
}
