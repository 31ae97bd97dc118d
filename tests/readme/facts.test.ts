/**
 * The README's and the docs/ pages' facts, checked against the repository: every file path they name exists, every
 * link between pages leads to a page, every `npm run` script is in package.json, every `/converge` comment command is
 * one the action knows and every `converge <command>` one the CLI knows. The README itself: under 300 lines, with the
 * demo and `npm ci && npm test` in its first 40. (The generated tables are checked by `scripts/write-action-docs.ts
 * --check`.)
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { CLI_COMMANDS } from '../../src/cli/command-table.js'
import { COMMANDS } from '../../src/model/commands.js'

const ROOT = new URL('../../', import.meta.url)
const README = readFileSync(new URL('README.md', ROOT), 'utf8')
const DOCS = readdirSync(new URL('docs/', ROOT)).filter((name) => name.endsWith('.md')).sort()
const PAGES = [{ path: 'README.md', text: README }, ...DOCS.map((name) => ({ path: `docs/${name}`, text: readFileSync(new URL(`docs/${name}`, ROOT), 'utf8') }))]
const scripts = Object.keys((JSON.parse(readFileSync(new URL('package.json', ROOT), 'utf8')) as { scripts: Record<string, string> }).scripts)


/** What a page shows as code: inline code spans and lines of fenced blocks. */
function codeTexts(markdown: string): string[] {
  const texts: string[] = []
  const withoutFences = markdown.replace(/^```[^\n]*\n([\s\S]*?)^```/gm, (_, body: string) => {
    texts.push(...body.split('\n'))
    return ''
  })
  for (const match of withoutFences.matchAll(/`([^`\n]+)`/g)) texts.push(match[1]!)
  return texts
}

/** A page's relative link targets, as paths from the repository's root (`execution.md` in docs/ is docs/execution.md). */
function linkTargets(page: { path: string; text: string }): string[] {
  const withoutFences = page.text.replace(/^```[^\n]*\n[\s\S]*?^```/gm, '')
  const folder = page.path.includes('/') ? page.path.slice(0, page.path.lastIndexOf('/') + 1) : ''
  return [...withoutFences.matchAll(/\]\(([^)\s#]+)(?:#[^)]*)?\)/g)]
    .map((match) => match[1]!)
    .filter((target) => !/^[a-z]+:/.test(target))
    .map((target) => new URL(target, new URL(folder, ROOT)).pathname.slice(new URL(ROOT).pathname.length))
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

const texts = PAGES.flatMap((page) => codeTexts(page.text))

/** Paths the pages use as examples of a user's repository (a plan's files, a workflow they add), not of ours. */
const USER_REPOSITORY_EXAMPLES = new Set(['src/a.ts', 'src/slugify.js', 'src/truncate.js', 'scripts/x', 'scripts/check.sh', '.github/workflows/converge-verify.yml', '.github/actions/', '.github/workflows/exfiltrate.yml', 'src/pages/list.js', 'src/editor/LegacyEditor.tsx'])

describe('README and docs/ facts', () => {
  const paths = [...new Set([...texts.flatMap(repositoryPaths), ...PAGES.flatMap(linkTargets)])]

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

  it('names converge commands that the CLI knows', () => {
    const named = [...new Set(texts.flatMap((text) => [...text.matchAll(/(?:^|[\s$])converge ([a-z][a-z-]*)/g)].map((m) => m[1]!)))]
    expect(named.length).toBeGreaterThan(8)
    expect(named.filter((name) => name !== 'help' && !CLI_COMMANDS.some((command) => command.name === name))).toEqual([])
  })
})

describe('the README', () => {
  const lines = README.split('\n')

  it('stays under 300 lines, the reference living in docs/', () => {
    expect(lines.length).toBeLessThan(300)
  })

  it('shows how to try Converge and run its tests within its first 40 lines', () => {
    const opening = lines.slice(0, 40).join('\n')
    expect(opening).toContain('npx --no-install converge demo')
    expect(opening).toContain('npm ci && npm test')
  })

  it('links every docs/ page', () => {
    expect(DOCS.filter((name) => !README.includes(`](docs/${name})`))).toEqual([])
  })

  it('gives the same test count and duration as docs/development.md', () => {
    const figure = /npm test[^\n]*?([\d,]+ tests in \d+ min \d+ s)/
    // Each page must give the figure: two pages that both lost it would agree on nothing.
    const inReadme = README.match(figure)?.[1]
    const inDevelopment = readFileSync(new URL('docs/development.md', ROOT), 'utf8').match(figure)?.[1]
    expect(inReadme, 'the README: "npm test … N tests in M min S s"').toBeDefined()
    expect(inDevelopment, 'docs/development.md: "npm test … N tests in M min S s"').toBeDefined()
    expect(inReadme).toBe(inDevelopment)
  })
})
