/**
 * Writes the README's inputs and outputs tables from action.yml, between `<!-- action-inputs:start -->` and
 * `<!-- action-inputs:end -->`. `--check` exits 1 when the README is stale (CI runs it).
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { parse } from 'yaml'

interface ActionYml {
  inputs: Record<string, { description: string; default?: string; required?: boolean }>
  outputs: Record<string, { description: string }>
}

const root = join(import.meta.dirname, '..')
const START = '<!-- action-inputs:start -->'
const END = '<!-- action-inputs:end -->'

const action = parse(readFileSync(join(root, 'action.yml'), 'utf8')) as ActionYml
const cell = (text: string) => text.replace(/\s+/g, ' ').trim().replace(/\|/g, '\\|')
const value = (text: string | undefined) => (text === undefined || text === '' ? '' : `\`${text.replace(/`/g, "'")}\``)

const tables = [
  START,
  '<!-- Generated from action.yml by scripts/write-action-docs.ts: edit action.yml, then run npm run docs. -->',
  '',
  '| input | default | what it does |',
  '| --- | --- | --- |',
  ...Object.entries(action.inputs).map(([name, input]) => `| \`${name}\` | ${value(input.default)} | ${cell(input.description)} |`),
  '',
  '| output | what it holds |',
  '| --- | --- |',
  ...Object.entries(action.outputs).map(([name, output]) => `| \`${name}\` | ${cell(output.description)} |`),
  END,
].join('\n')

const readmePath = join(root, 'README.md')
const readme = readFileSync(readmePath, 'utf8')
const from = readme.indexOf(START)
const to = readme.indexOf(END)
if (from === -1 || to === -1) {
  console.error(`README.md has no ${START} … ${END} section`)
  process.exit(1)
}
const next = `${readme.slice(0, from)}${tables}${readme.slice(to + END.length)}`
if (next === readme) process.exit(0)
if (process.argv.includes('--check')) {
  console.error('README.md: the inputs and outputs tables differ from action.yml: run npm run docs')
  process.exit(1)
}
writeFileSync(readmePath, next)
console.log('wrote the inputs and outputs tables of README.md')
