import { describe, expect, it } from 'vitest'
import {
  dependencyPhrases, fileActionFor, filePath, isMetadataLine, leadingAction, leadingLabel, saysSequential, taskRefs,
} from '../../src/planners/phrases.js'
import { shellCommands } from '../../src/planners/shell.js'
import { shortTitle } from '../../src/planners/text.js'

describe('task references', () => {
  it('finds T-ids and TASK-ids, canonical and without repeats', () => {
    expect(taskRefs('T1, TASK-003 and T1 again, not T or Tx1')).toEqual(['T1', 'T3'])
  })

  it.each([
    ['T2: Add x', 'loose', ['T2'], 'Add x'],
    ['T2 Add x', 'loose', ['T2'], 'Add x'],
    ['[T3] Add x', 'loose', ['T3'], 'Add x'],
    ['T1, T3 - shared', 'strict', ['T1', 'T3'], 'shared'],
    ['T1：中文', 'strict', ['T1'], '中文'],
    ['（T2）测试', 'strict', ['T2'], '测试'],
    ['T2 returns 401', 'strict', [], 'T2 returns 401'],
    ['Add T2', 'loose', [], 'Add T2'],
  ] as const)('leading label of %j (%s)', (text, mode, refs, rest) => {
    expect(leadingLabel(text, mode)).toEqual({ refs, rest })
  })
})

describe('dependency phrases', () => {
  it.each([
    ['Add tests (depends on T1)', ['T1'], 'Add tests'],
    ['Add tests, after T2', ['T2'], 'Add tests'],
    ['Wire it up (needs T1, T3)', ['T1', 'T3'], 'Wire it up'],
    ['Ship — requires T1 and T2 is done', ['T1', 'T2'], 'Ship'],
    ['Deploy blocked by TASK-004', ['T4'], 'Deploy'],
    ['Depends on: T2', ['T2'], ''],
    ['添加测试（依赖 T1）', ['T1'], '添加测试'],
    ['添加测试，依赖 T1 和 T2', ['T1', 'T2'], '添加测试'],
    ['Ship AFTER t3', ['T3'], 'Ship'],
    ['Hereafter T1 rules', [], 'Hereafter T1 rules'],
    ['Run after the build', [], 'Run after the build'],
    ['不再依赖本地时区', [], '不再依赖本地时区'],
  ] as const)('%j', (text, refs, rest) => {
    expect(dependencyPhrases(text)).toEqual({ refs, rest })
  })

  it('recognises a list that says it is to be done in order', () => {
    expect(['Do these in order', 'Run them sequentially', 'one after another', '依次完成'].every(saysSequential)).toBe(true)
    expect(saysSequential('Order matters for nobody')).toBe(false)
  })
})

describe('actions', () => {
  it.each([
    ['Create the module', 'Create'], ['Write a parser', 'Create'], ['Add a flag', 'Add'], ['Introduce caching', 'Add'],
    ['Adds a flag', 'Add'], ['Adding a flag', 'Add'], ['Rename foo', 'Refactor'], ['Extract bar', 'Refactor'],
    ['Document the API', 'Update'], ['Fix the crash', 'Fix'], ['Delete old.js', 'Delete'], ['Remove the flag', 'Remove'],
    ['Configure CI', 'Configure'], ['Test the parser', 'Test'], ['Implement it', 'Implement'], ['Change the default', 'Modify'],
    ['修复解析', 'Fix'], ['新建测试', 'Create'], ['The thing', undefined], ['', undefined],
  ] as const)('%j → %s', (text, action) => {
    expect(leadingAction(text)).toBe(action)
  })
})

describe('file paths', () => {
  it.each([
    ['src/a.ts', { path: 'src/a.ts' }],
    ['./src/a.ts', { path: 'src/a.ts' }],
    ['src/auth/token.ts:89', { path: 'src/auth/token.ts', line: 89 }],
    ['package.json', { path: 'package.json' }],
    ['.gitignore', { path: '.gitignore' }],
    ['Dockerfile', { path: 'Dockerfile' }],
    ['bin/converge', { path: 'bin/converge' }],
    ['app/[id]/page.tsx', { path: 'app/[id]/page.tsx' }],
  ])('%j is a path', (code, expected) => {
    expect(filePath(code)).toEqual(expected)
  })

  it.each(['npm test', '--force', 'refresh()', '@octokit/rest', 'application/json', 'https://x.y/z', '/etc/passwd', '../outside.ts', 'src/', 'config.port', '1.2.3', 'T1', ''])(
    '%j is not a path',
    (code) => {
      expect(filePath(code)).toBeUndefined()
    },
  )

  it.each([
    ['Create', 'Create ', 'create'],
    ['Add', 'Add ', 'create'],
    ['Add', 'Add a route to ', 'modify'],
    ['Add', 'Add tests in the ', 'modify'],
    ['Remove', 'Remove the flag from ', 'modify'],
    ['Delete', 'Delete ', 'delete'],
    ['Remove', 'Remove ', 'delete'],
    ['Fix', 'Fix ', 'modify'],
    ['Create', 'Create a.js and extend ', 'modify'],
    ['Create', 'Create a.js, b.js and ', 'create'],
    ['Add', '添加测试到 ', 'modify'],
  ] as const)('%s … %j → %s', (action, before, expected) => {
    expect(fileActionFor(action, before)).toBe(expected)
  })
})

describe('shell blocks', () => {
  it('gives one command per line, without blank lines, comments and prompts, joining continuations', () => {
    const commands = shellCommands({ lang: 'sh', text: '# setup\nnpm ci\n\n$ npm test \\\n  -- auth\n' })
    expect(commands).toEqual([{ command: 'npm ci', refs: [] }, { command: 'npm test -- auth', refs: [] }])
  })

  it('in a console transcript, only $ lines are commands', () => {
    expect(shellCommands({ lang: 'console', text: '$ node --test\nok 1 - works\n$ ls' }).map((c) => c.command)).toEqual(['node --test', 'ls'])
  })

  it('gives the commands under a comment that names tasks to those tasks, until the next comment', () => {
    const commands = shellCommands({ lang: 'bash', text: '# T1: unit\na\nb\n# T2, T3\nc\n# everything\nd' })
    expect(commands.map((c) => [c.command, c.refs])).toEqual([['a', ['T1']], ['b', ['T1']], ['c', ['T2', 'T3']], ['d', []]])
  })
})

describe('titles and metadata', () => {
  it('takes the first sentence without trailing punctuation', () => {
    expect(shortTitle('Add the flag. Then document it.')).toBe('Add the flag')
    expect(shortTitle('Update package.json:')).toBe('Update package.json')
    expect(shortTitle('修复解析。然后测试')).toBe('修复解析')
  })

  it('cuts a very long title at a word', () => {
    const title = shortTitle(`Add ${'word '.repeat(60)}`)
    expect(title.length).toBeLessThanOrEqual(121)
    expect(title.endsWith('word…')).toBe(true)
  })

  it('recognises metadata lines', () => {
    expect(['Risk: high', 'priority：P1', '风险：中'].every(isMetadataLine)).toBe(true)
    expect(isMetadataLine('Risky change')).toBe(false)
  })
})
