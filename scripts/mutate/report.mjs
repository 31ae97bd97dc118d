// @ts-check
/**
 * The mutation run's report a person can read: the score of each trust-core area and module, and every mutant the
 * tests let live (survived, or covered by no test), as `file:line: original → replacement`. Reads StrykerJS's JSON
 * report (stryker.config.mjs writes reports/mutation/mutation.json), prints markdown and writes it beside the JSON
 * as survivors.md. `node scripts/mutate/report.mjs [mutation.json]`.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { SCORE_FLOOR, TRUST_CORE } from '../../stryker.config.mjs'

const path = process.argv[2] ?? 'reports/mutation/mutation.json'
/** @type {{ files: Record<string, { source: string, mutants: Mutant[] }> }} */
const report = JSON.parse(readFileSync(path, 'utf8'))
/** @typedef {{ id: string, mutatorName: string, replacement?: string, status: string, location: { start: { line: number, column: number }, end: { line: number, column: number } } }} Mutant */

const DETECTED = new Set(['Killed', 'Timeout'])
const UNDETECTED = new Set(['Survived', 'NoCoverage'])

/** Detected and undetected mutants of some files (errors and ignored ones count in neither, as Stryker counts). */
function tally(/** @type {Mutant[]} */ mutants) {
  const detected = mutants.filter((m) => DETECTED.has(m.status)).length
  const undetected = mutants.filter((m) => UNDETECTED.has(m.status)).length
  const total = detected + undetected
  return { detected, undetected, total, score: total === 0 ? 100 : (100 * detected) / total }
}
const pct = (/** @type {number} */ score) => `${score.toFixed(1)}%`

/** The mutated code, on one line and short. */
function original(/** @type {string} */ source, /** @type {Mutant} */ m) {
  const lines = source.split('\n')
  const { start, end } = m.location
  const text = start.line === end.line
    ? lines[start.line - 1]?.slice(start.column - 1, end.column - 1)
    : [lines[start.line - 1]?.slice(start.column - 1), ...lines.slice(start.line, end.line - 1), lines[end.line - 1]?.slice(0, end.column - 1)].join('\n')
  return oneLine(text ?? '')
}
const oneLine = (/** @type {string} */ text) => {
  const flat = text.replace(/\s+/g, ' ').trim()
  return flat.length > 90 ? `${flat.slice(0, 87)}…` : flat
}

const files = Object.entries(report.files).sort(([a], [b]) => a.localeCompare(b))
const all = tally(files.flatMap(([, f]) => f.mutants))
const out = [
  `# Mutation report of the trust core`,
  '',
  `Mutation score ${pct(all.score)}: ${all.detected} of ${all.total} mutants detected (killed or timed out), ` +
    `${all.undetected} undetected; the floor is ${SCORE_FLOOR}% (stryker.config.mjs).`,
  '',
  '| area | module | mutants | detected | survived | no test covers | score |',
  '| --- | --- | ---: | ---: | ---: | ---: | ---: |',
]
for (const area of TRUST_CORE) {
  for (const module of area.modules) {
    const mutants = report.files[module]?.mutants
    if (mutants === undefined) {
      out.push(`| ${area.area} | ${module} | not in this run | | | | |`)
      continue
    }
    const t = tally(mutants)
    const count = (/** @type {string} */ status) => mutants.filter((m) => m.status === status).length
    out.push(`| ${area.area} | ${module} | ${t.total} | ${t.detected} | ${count('Survived')} | ${count('NoCoverage')} | ${pct(t.score)} |`)
  }
}
out.push('', '## Mutants the tests let live', '')
let listed = 0
for (const [file, { source, mutants }] of files) {
  const live = mutants.filter((m) => UNDETECTED.has(m.status)).sort((a, b) => a.location.start.line - b.location.start.line)
  if (live.length === 0) continue
  out.push(`### ${file} (${live.length})`, '')
  for (const m of live) {
    const why = m.status === 'NoCoverage' ? ' (no test covers it)' : ''
    out.push(`- ${file}:${m.location.start.line}: ${m.mutatorName}: \`${original(source, m)}\` → \`${oneLine(m.replacement ?? '')}\`${why}`)
    listed++
  }
  out.push('')
}
if (listed === 0) out.push('None: every mutant was detected.', '')

const markdown = out.join('\n')
writeFileSync(join(dirname(path), 'survivors.md'), markdown)
console.log(markdown)
