import { describe, expect, it } from 'vitest'
import type { Layer } from '../../scripts/architecture/layers.js'
import { copiedBlocks, directoryOf, layerViolations, longestFiles, seamViolations } from '../../scripts/architecture/rules.js'

const layers: Layer[] = [
  { name: 'core', dirs: ['model'], role: 'data' },
  { name: 'io', dirs: ['exec', 'git'], role: 'the machine' },
  { name: 'hosts', dirs: ['cli'], role: 'entry' },
]

describe('layerViolations', () => {
  it('lets a file import its own directory and lower layers', () => {
    expect(layerViolations([
      { from: 'cli/main.ts', to: 'cli/commands/run.ts' },
      { from: 'cli/commands/run.ts', to: 'exec/run.ts' },
      { from: 'cli/main.ts', to: 'model/task.ts' },
      { from: 'git/refs.ts', to: 'model/ids.ts' },
      { from: 'model/task.ts', to: 'model/ids.ts' },
    ], layers)).toEqual([])
  })

  it('refuses an import from a lower layer to a higher one, naming both files and both layers', () => {
    expect(layerViolations([{ from: 'model/task.ts', to: 'cli/main.ts' }], layers)).toEqual([
      'src/model/task.ts imports src/cli/main.ts: model/ (layer core) may not import cli/ (layer hosts, above it)',
    ])
  })

  it('refuses an import between two directories of one layer', () => {
    expect(layerViolations([{ from: 'exec/run.ts', to: 'git/git.ts' }], layers)).toEqual([
      'src/exec/run.ts imports src/git/git.ts: exec/ and git/ are both in layer io: neither imports the other',
    ])
  })

  it('names a directory the layer list leaves out, once', () => {
    expect(layerViolations([
      { from: 'misc/a.ts', to: 'model/task.ts' },
      { from: 'cli/main.ts', to: 'misc/b.ts' },
    ], layers)).toEqual(['src/misc/ is in no layer: add it to scripts/architecture/layers.ts'])
  })

  it('puts a file directly in src/ in the layer of `.`', () => {
    expect(directoryOf('index.ts')).toBe('.')
    expect(directoryOf('cli/commands/run.ts')).toBe('cli')
    expect(layerViolations([{ from: 'cli/main.ts', to: 'main.ts' }], [...layers, { name: 'entry', dirs: ['.'], role: 'entry' }])).toEqual([
      'src/cli/main.ts imports src/main.ts: cli/ (layer hosts) may not import ./ (layer entry, above it)',
    ])
  })
})

describe('longestFiles', () => {
  it('lists the longest first, ties in path order', () => {
    const files = [{ path: 'b.ts', lines: 10 }, { path: 'a.ts', lines: 10 }, { path: 'c.ts', lines: 500 }, { path: 'd.ts', lines: 1 }]
    expect(longestFiles(files, 3)).toEqual([{ path: 'c.ts', lines: 500 }, { path: 'a.ts', lines: 10 }, { path: 'b.ts', lines: 10 }])
  })
})

describe('seamViolations', () => {
  it('refuses run options built in a host outside its mapping, REST outside github/, and the work branch spelled twice', () => {
    expect(seamViolations([
      { path: 'cli/commands/run.ts', text: 'run({ repoDir, workRoot: dir })' },
      { path: 'cli/run-request.ts', text: 'return { workRoot: dir }' },
      { path: 'action/publish.ts', text: 'await session.client.rest.repos.get(repo) // converge/issue-1' },
      { path: 'github/repos.ts', text: 'await client.rest.repos.get(repo)' },
      { path: 'model/names.ts', text: "const PREFIX = 'converge/issue-'" },
      { path: 'cli/help.ts', text: "const text = 'converge/issue-<n>'" },
    ])).toEqual([
      'src/cli/commands/run.ts builds a run\'s options by hand (`workRoot:`): map the host\'s inputs in src/action/inputs.ts or src/cli/run-request.ts and call runOf',
      'src/action/publish.ts calls GitHub\'s REST API: every `client.rest` call lives in src/github/',
      'the work branch\'s name `converge/issue-` is spelled in 3 files (src/action/publish.ts, src/model/names.ts, src/cli/help.ts): call workBranchName (model/state-layout.ts)',
    ])
  })

  it('takes a key in a comment, or a pipeline file, for no assembly', () => {
    expect(seamViolations([
      { path: 'action/run.ts', text: '/** options: { workRoot: dir } */\nrunOf(request, n, { commit: true })' },
      { path: 'pipeline/run-request.ts', text: 'const options = { workRoot: w }' },
    ])).toEqual([])
  })
})

describe('copiedBlocks', () => {
  const block = (indent: string) => ['function f(a) {', 'let x = a', 'x += 1', 'x *= 2', 'x -= 3', 'x /= 4', 'return x', '}'].map((l) => indent + l).join('\n')

  it('finds a block of six lines copied, re-indented, once however long it is', () => {
    expect(copiedBlocks([{ path: 'a.ts', text: block('') }, { path: 'b/c.ts', text: `// a copy\n${block('    ')}` }])).toEqual([
      'src/b/c.ts:2 repeats src/a.ts:1 (6 lines or more): share one',
    ])
  })

  it('leaves five lines alike, blank lines and braces aside, alone', () => {
    const five = 'let x = a\nx += 1\n\n}\nx *= 2\nx -= 3\nreturn x'
    expect(copiedBlocks([{ path: 'a.ts', text: five }, { path: 'b.ts', text: five }])).toEqual([])
  })
})
