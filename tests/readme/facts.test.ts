/**
 * The README's facts, checked against the repository: every file path it names exists, every `npm run` script is in
 * package.json, every `/converge` comment command is one the action knows. (Inputs and outputs are checked by
 * `scripts/write-action-docs.ts --check`.)
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { COMMANDS } from '../../src/commands/commands.js'

const ROOT = new URL('../../', import.meta.url)
const README = readFileSync(new URL('README.md', ROOT), 'utf8')
const scripts = Object.keys((JSON.parse(readFileSync(new URL('package.json', ROOT), 'utf8')) as { scripts: Record<string, string> }).scripts)

/** What the README shows as code: inline code spans, lines of fenced blocks, and link targets. */
function codeTexts(markdown: string): string[] {
  const texts: string[] = []
  const withoutFences = markdown.replace(/^```[^\n]*\n([\s\S]*?)^```/gm, (_, body: string) => {
    texts.push(...body.split('\n'))
    return ''
  })
  for (const match of withoutFences.matchAll(/`([^`\n]+)`/g)) texts.push(match[1]!)
  for (const match of withoutFences.matchAll(/\]\(([^)\s#]+)(?:#[^)]*)?\)/g)) if (!/^[a-z]+:/.test(match[1]!)) texts.push(match[1]!)
  return texts
}

/** Top-level folders and files of the repository: a word that starts with one of them names a path of ours. */
const TOP_LEVEL = readdirSync(ROOT).filter((name) => !['node_modules', '.git', '.cache'].includes(name))

/** Words of a code text that name a path in this repository (`src/plan/dag.ts`, `examples/workflows/`, `action.yml`). */
function repositoryPaths(text: string): string[] {
  return text
    .split(/[\s'"(),;=]+/)
    .map((word) => word.replace(/^\.\//, '').replace(/[.:]+$/, ''))
    .filter((word) => word.length > 0 && !/[<>*{}$|]/.test(word))
    .filter((word) => TOP_LEVEL.some((top) => word === top || word.startsWith(`${top}/`)))
}

const texts = codeTexts(README)

/** Paths the README uses as examples of a user's repository (a plan's files, a workflow they add), not of ours. */
const USER_REPOSITORY_EXAMPLES = new Set(['src/a.ts', 'src/slugify.js', 'src/truncate.js', 'scripts/x', '.github/workflows/converge-verify.yml'])

describe('README facts', () => {
  const paths = [...new Set(texts.flatMap(repositoryPaths))]

  it('names files and folders that exist', () => {
    expect(paths.length).toBeGreaterThan(20)
    expect(paths.filter((path) => !USER_REPOSITORY_EXAMPLES.has(path) && !existsSync(new URL(path, ROOT)))).toEqual([])
  })

  it('names npm scripts that package.json has', () => {
    const named = [...new Set(texts.flatMap((text) => [...text.matchAll(/\bnpm run(?: -s)? ([\w:-]+)/g)].map((m) => m[1]!)))]
    expect(named.length).toBeGreaterThan(2)
    expect(named.filter((name) => !scripts.includes(name))).toEqual([])
  })

  it('names /converge commands that the action knows', () => {
    const named = [...new Set(texts.flatMap((text) => [...text.matchAll(/\/converge ([a-z-]+)/g)].map((m) => m[1]!)))]
    expect(named.length).toBeGreaterThan(3)
    expect(named.filter((name) => !Object.hasOwn(COMMANDS, name))).toEqual([])
  })
})
