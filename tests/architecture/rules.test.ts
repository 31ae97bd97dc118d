import { describe, expect, it } from 'vitest'
import type { Layer } from '../../scripts/architecture/layers.js'
import { directoryOf, layerViolations, longestFiles } from '../../scripts/architecture/rules.js'

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
