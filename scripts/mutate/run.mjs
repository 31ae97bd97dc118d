// @ts-check
/**
 * `npm run mutate`: StrykerJS over the trust core (stryker.config.mjs), then the readable report
 * (scripts/mutate/report.mjs). Fails when Stryker does: a mutation score under the floor, or a run that broke.
 *
 *   npm run mutate                    every module of TRUST_CORE (mutants unchanged since the committed
 *                                     incremental file keep their result)
 *   npm run mutate -- --since <ref>   changed lines first: only the lines of TRUST_CORE modules that differ from
 *                                     <ref> (what CI runs, with the last commit or merge of main)
 *   npm run mutate -- --force         every mutant again, ignoring the incremental file (rewrites it)
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { rmSync } from 'node:fs'
import { TRUST_CORE } from '../../stryker.config.mjs'

const args = process.argv.slice(2)
const since = args.includes('--since') ? args[args.indexOf('--since') + 1] : undefined
const modules = TRUST_CORE.flatMap((area) => area.modules)
const strykerArgs = ['stryker', 'run', ...(args.includes('--force') ? ['--force'] : [])]

if (since !== undefined) {
  const ranges = changedRanges(since)
  if (ranges.length === 0) {
    console.log(`mutation testing: no line of the trust core (${modules.length} modules) changed since ${since}; nothing to mutate`)
    process.exit(0)
  }
  console.log(`mutation testing: the trust core's lines changed since ${since}: ${ranges.join(', ')}`)
  // Its results are of a few lines: kept apart, so that the whole run's incremental file stays whole.
  strykerArgs.push('--mutate', ranges.join(','), '--incrementalFile', 'reports/mutation/since-incremental.json')
}

// The report reads this run's JSON only, never an older one.
rmSync('reports/mutation/mutation.json', { force: true })
const started = Date.now()
const stryker = spawnSync('npx', strykerArgs, { stdio: 'inherit' })
console.log(`mutation testing took ${Math.round((Date.now() - started) / 1000)} s`)
const report = spawnSync(process.execPath, ['scripts/mutate/report.mjs'], { stdio: 'inherit' })
process.exit(stryker.status !== 0 ? stryker.status ?? 1 : report.status ?? 1)

/** `file:first-last` for each block of lines of a trust-core module that differs from `ref` (the new side). */
function changedRanges(/** @type {string} */ ref) {
  let diff
  try {
    diff = execFileSync('git', ['diff', '--unified=0', '--no-color', '--no-ext-diff', ref, '--', ...modules], { encoding: 'utf8' })
  } catch (error) {
    console.error(`mutation testing: cannot diff against ${ref}: ${/** @type {Error} */ (error).message}`)
    process.exit(1)
  }
  const ranges = []
  let file = ''
  for (const line of diff.split('\n')) {
    if (line.startsWith('+++ ')) file = line.slice(4).replace(/^b\//, '')
    const hunk = /^@@ -\S+ \+(\d+)(?:,(\d+))? @@/.exec(line)
    if (!hunk || file === '/dev/null') continue
    const first = Number(hunk[1])
    const count = hunk[2] === undefined ? 1 : Number(hunk[2])
    // A hunk that only removes lines leaves none to mutate.
    if (count > 0) ranges.push(`${file}:${first}-${first + count - 1}`)
  }
  return ranges
}
