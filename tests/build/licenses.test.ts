/**
 * The bundles' licenses files (scripts/write-licenses.ts, run by `npm run build`): every package bundled in any chunk
 * is listed with its license text, the lazily loaded chunks (the action's commands) included; and every runtime dependency
 * the sources import is in one of the bundles' lists, so a package missing from the build's stats is caught here.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

const ROOT = new URL('../..', import.meta.url).pathname
const BUNDLES = { action: join(ROOT, 'dist'), cli: join(ROOT, 'dist/cli') }

/** `name@version` of each package the header of a licenses file lists, with whether its section is there. */
function listed(dir: string): Map<string, boolean> {
  const text = readFileSync(join(dir, 'licenses.txt'), 'utf8')
  const [header, body] = [text.slice(0, text.indexOf('\n\n')), text.slice(text.indexOf('\n\n'))]
  const ids = header.split('\n').slice(1).map((line) => line.replace(/^- /, ''))
  return new Map(ids.map((id) => [id, body.includes(`\n${id.slice(0, id.lastIndexOf('@'))}\n`)]))
}

/** The packages `src/` imports (statically or with `import()`), by name. */
function importedPackages(): Set<string> {
  const names = new Set<string>()
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name)
      if (entry.isDirectory()) walk(path)
      else if (entry.name.endsWith('.ts')) {
        for (const m of readFileSync(path, 'utf8').matchAll(/(?:from |import\()'((?:@[\w.-]+\/)?[\w.-]+)[^']*'/g)) if (!m[1]!.startsWith('node:')) names.add(m[1]!)
      }
    }
  }
  walk(join(ROOT, 'src'))
  return names
}

describe.skipIf(!existsSync(join(BUNDLES.action, 'index.js')))('the bundles\' licenses files', () => {
  it('list each bundled package once, each with its license text', () => {
    for (const dir of Object.values(BUNDLES)) {
      const packages = listed(dir)
      expect(packages.size).toBeGreaterThan(10)
      expect([...packages].filter(([, section]) => !section).map(([id]) => id)).toEqual([])
    }
  })

  it('list every runtime dependency the sources import, those of the action\'s lazily loaded commands too', () => {
    const dependencies = Object.keys(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).dependencies as Record<string, string>)
    const names = (dir: string) => new Set([...listed(dir).keys()].map((id) => id.slice(0, id.lastIndexOf('@'))))
    const bundled = new Set([...names(BUNDLES.action), ...names(BUNDLES.cli)])
    const imported = [...importedPackages()].filter((name) => dependencies.includes(name))
    expect(imported.length).toBeGreaterThan(5)
    expect(imported.filter((name) => !bundled.has(name))).toEqual([])
    // The commands are chunks of their own, loaded once there is one to run: marked (the planners' Markdown reader)
    // is in those chunks alone, and still listed.
    const chunks = readdirSync(BUNDLES.action).filter((f) => /^\d+\.index\.js$/.test(f))
    expect(chunks.length).toBeGreaterThan(0)
    expect(names(BUNDLES.action).has('marked')).toBe(true)
    expect(readFileSync(join(BUNDLES.action, 'index.js'), 'utf8')).not.toContain('marked_esm')
  })
})
