/**
 * `tsx scripts/write-licenses.ts <ncc stats.json> <out dir>`: the licenses file of a bundle, from the webpack stats
 * ncc writes (`--stats-out`). ncc's own `--license` writes one file per chunk over the same name, so a bundle with a
 * lazily loaded chunk (the action's commands) listed that chunk's packages alone. Here every module of every chunk
 * counts: each package (name, version, license, its license text) once, and the list of them first. A bundled
 * package with no license text fails the build. The stats file is removed afterwards (it is 25 MB).
 */
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'

interface StatsModule { name?: string; modules?: StatsModule[] }

const [statsPath, outDir] = process.argv.slice(2)
if (!statsPath || !outDir) throw new Error('usage: write-licenses.ts <stats.json> <out dir>')
const stats = JSON.parse(readFileSync(statsPath, 'utf8')) as { modules: StatsModule[] }

/** Package directories (relative to the root, nested node_modules kept) of every bundled module. */
const dirs = new Set<string>()
const walk = (modules: readonly StatsModule[]) => {
  for (const m of modules) {
    const match = m.name && /^(?:\.\/)?((?:.*\/)?node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(m.name.split('!').at(-1)!)
    if (match) dirs.add(match[1]!)
    if (m.modules) walk(m.modules)
  }
}
walk(stats.modules)

const LICENSE_FILE = /^(?:licen[cs]e|copying)(?:[.-].*)?$/i
const sections: Array<{ id: string; text: string }> = []
const missing: string[] = []
for (const dir of [...dirs].sort()) {
  const pkg = JSON.parse(readFileSync(resolve(dir, 'package.json'), 'utf8')) as { name: string; version: string; license?: string | { type: string } }
  const license = typeof pkg.license === 'object' ? pkg.license.type : pkg.license ?? 'UNKNOWN'
  const file = readdirSync(resolve(dir)).find((f) => LICENSE_FILE.test(f))
  if (!file) missing.push(`${pkg.name}@${pkg.version}`)
  const text = file ? readFileSync(resolve(dir, file), 'utf8').trim() : `(no license file in the package; package.json says ${license})`
  const id = `${pkg.name}@${pkg.version}`
  if (!sections.some((s) => s.id === id)) sections.push({ id, text: `${pkg.name}\n${license}\n${text}` })
}
if (missing.length) console.warn(`write-licenses: no license file in ${missing.join(', ')} (its package.json license is listed)`)
if (!sections.length) throw new Error(`write-licenses: no bundled package found in ${statsPath}`)

const header = [
  'The packages bundled in this folder\'s JavaScript files (every chunk), each with its license below:',
  ...sections.map((s) => `- ${s.id}`),
  '',
].join('\n')
writeFileSync(join(outDir, 'licenses.txt'), `${header}\n${sections.map((s) => s.text).join('\n\n')}\n`)
if (existsSync(statsPath)) rmSync(statsPath)
console.log(`write-licenses: ${sections.length} packages in ${join(outDir, 'licenses.txt')}`)
