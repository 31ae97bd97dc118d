/**
 * `docs/architecture.md` checked against the code: every path it names exists, every function or type it
 * places in a file ("`executeIssue` (`pipeline/run-plan.ts`)") is declared there, and its table of layers is the
 * layer list the CI check follows.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { LAYERS } from '../../scripts/architecture/layers.js'

const ROOT = new URL('../../', import.meta.url)
const DOC = readFileSync(new URL('docs/architecture.md', ROOT), 'utf8')

/** `name` placed in `file`, as the page writes it: "`name` (`file`)", "`name` in `file`", "`name` (`file`: …". */
function placements(markdown: string): Array<{ name: string; file: string }> {
  const found: Array<{ name: string; file: string }> = []
  for (const m of markdown.matchAll(/`([A-Za-z_][\w.]*)`,? (?:\(|in )`((?:src\/)?[\w/.-]+\.ts)`/g)) found.push({ name: m[1]!, file: m[2]! })
  return found
}

/** Paths are written relative to `src/`, except those of the repository's other top-level folders. */
const srcPath = (file: string) => new URL(/^(?:src|scripts|tests|docs|schemas)\//.test(file) ? file : `src/${file}`, ROOT)

/** Whether `file` declares `name` (a function, class, constant, type, method or property). */
function declares(file: string, name: string): boolean {
  const member = name.split('.').at(-1)!
  const text = readFileSync(srcPath(file), 'utf8')
  return new RegExp(`(?:function|class|const|let|interface|type)\\s+${member}\\b|^\\s+(?:static\\s+)?(?:async\\s+)?${member}\\??\\s*[(:<]`, 'm').test(text)
}

describe('the folders of src/', () => {
  it('are each named in docs/architecture.md and docs/development.md', () => {
    const folders = readdirSync(new URL('src/', ROOT), { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name)
    const development = readFileSync(new URL('docs/development.md', ROOT), 'utf8')
    expect(folders.length).toBeGreaterThan(10)
    expect({
      architecture: folders.filter((folder) => !DOC.includes(`\`${folder}/\``)),
      development: folders.filter((folder) => !development.includes(`\`${folder}/\``)),
    }).toEqual({ architecture: [], development: [] })
  })
})

describe('docs/architecture.md', () => {
  it('names functions in the files that declare them', () => {
    const named = placements(DOC)
    expect(named.length).toBeGreaterThan(30)
    const wrong = named.filter(({ name, file }) => !existsSync(srcPath(file)) || !declares(file, name))
    expect(wrong).toEqual([])
  })

  it('names only files and folders that exist', () => {
    const paths = [...DOC.matchAll(/`((?:src\/)?(?:[a-z-]+\/)+(?:[\w.-]+\.ts)?)`/g)].map((m) => m[1]!)
      .filter((path) => !path.includes('<'))
    expect(paths.filter((path) => !existsSync(srcPath(path)))).toEqual([])
  })

  it('lists the layers of scripts/architecture/layers.ts, in order', () => {
    const rows = [...DOC.matchAll(/^\| (\d+) \| (\w+) \|/gm)].map((m) => m[2])
    expect(rows).toEqual(LAYERS.map((layer) => layer.name))
  })
})
