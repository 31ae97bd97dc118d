import { describe, expect, test } from 'vitest'
import { blockedByRefs, readEpic } from '../../src/planners/epic.js'

const repo = { owner: 'octo-org', repo: 'demo' }

describe('readEpic', () => {
  test('a task list of references: children in order, ticked ones done, titles kept', () => {
    const epic = readEpic('Tracking the login work.\n\n- [ ] #123\n- [x] #124\n- [ ] #125 Login page\n- [ ] Session store (#126)\n', repo)
    expect(epic).toEqual({
      children: [
        { number: 123, done: false },
        { number: 124, done: true },
        { number: 125, done: false, title: 'Login page' },
        { number: 126, done: false, title: 'Session store' },
      ],
      ordered: false,
      work: [],
    })
  })

  test('owner/repo#n and issue URLs count only for the same repository', () => {
    const body = [
      '- [ ] octo-org/demo#12',
      '- [ ] https://github.com/octo-org/demo/issues/13',
      '- [ ] https://github.com/other/lib/issues/14',
      '- [ ] other/lib#15',
    ].join('\n')
    expect(readEpic(body, repo)!.children.map((c) => c.number)).toEqual([12, 13])
    expect(readEpic(body, repo)!.work.map((w) => w.text)).toHaveLength(2)
    // Without the repository, only #n references are children.
    expect(readEpic('- [ ] octo-org/demo#12\n- [ ] #3', undefined)!.children.map((c) => c.number)).toEqual([3])
  })

  test('children keep the section heading they stand under', () => {
    const body = '## Frontend\n\n- [ ] #1 Login form\n- [ ] #2 Error banner\n\n## Backend\n\n- [ ] #3 Login form\n'
    expect(readEpic(body, repo)!.children).toEqual([
      { number: 1, done: false, title: 'Login form', section: 'Frontend' },
      { number: 2, done: false, title: 'Error banner', section: 'Frontend' },
      { number: 3, done: false, title: 'Login form', section: 'Backend' },
    ])
  })

  test('a numbered list, or ordering words in the prose, makes the list ordered', () => {
    expect(readEpic('1. #10\n2. #11\n3. #12\n', repo)!.ordered).toBe(true)
    expect(readEpic('Do these in order:\n\n- [ ] #10\n- [ ] #11\n', repo)!.ordered).toBe(true)
    expect(readEpic('First the schema, then the API.\n\n- [ ] #10\n- [ ] #11\n', repo)!.ordered).toBe(true)
    expect(readEpic('Independent pieces.\n\n- [ ] #10\n- [ ] #11\n', repo)!.ordered).toBe(false)
  })

  test('Chinese, Portuguese and Japanese ordering words', () => {
    expect(readEpic('请依次完成以下子任务：\n\n- [ ] #20 数据库迁移\n- [x] #21 接口\n', repo)).toMatchObject({
      ordered: true,
      children: [{ number: 20, title: '数据库迁移', done: false }, { number: 21, title: '接口', done: true }],
    })
    expect(readEpic('Fazer em ordem:\n\n- [ ] #30 Migração\n- [ ] #31 API\n', repo)!.ordered).toBe(true)
    expect(readEpic('以下を順番に対応します。\n\n- [ ] #40 設計\n- [ ] #41 実装\n', repo)!.ordered).toBe(true)
  })

  test('a mix of references and plain items: the references are children, the rest stays work', () => {
    const epic = readEpic('- [ ] #7 Parser\n- [ ] Update the changelog\n- [x] Write the design note\n', repo)
    expect(epic!.children).toEqual([{ number: 7, done: false, title: 'Parser' }])
    expect(epic!.work).toEqual([{ text: 'Update the changelog', done: false }, { text: 'Write the design note', done: true }])
  })

  test('not an epic: a reference in prose, a task list of plain work, an item that only mentions an issue', () => {
    expect(readEpic('This breaks since #12 landed; see the stack trace below.', repo)).toBeUndefined()
    expect(readEpic('- [ ] Add the endpoint\n- [ ] Write tests\n', repo)).toBeUndefined()
    expect(readEpic('- [ ] Fix the crash that #12 reported in the parser\n', repo)).toBeUndefined()
    // One plain bullet with a reference is a mention, two make a tracking list.
    expect(readEpic('- #12\n', repo)).toBeUndefined()
    expect(readEpic('- #12\n- #13\n', repo)!.children).toHaveLength(2)
  })

  test('a child listed twice appears once, nested items are read too', () => {
    const epic = readEpic('- [ ] #1 Auth\n  - [ ] #2 Tokens\n- [ ] #1 Auth again\n', repo)
    expect(epic!.children.map((c) => c.number)).toEqual([1, 2])
  })
})

describe('blockedByRefs', () => {
  test.each([
    ['Blocked by #12.', [12]],
    ['This depends on #12 and #13.', [12, 13]],
    ['Start after #12 is done.', [12]],
    ['Waiting for #4, #5', [4, 5]],
    ['依赖 #12', [12]],
    ['需要在 #8 之后进行', [8]],
    ['Depende de #12 e #14.', [12, 14]],
    ['Bloqueada por #9', [9]],
    ['#12 の後に着手します', [12]],
    ['#3 に依存しています', [3]],
  ])('%s', (body, expected) => {
    expect(blockedByRefs(body)).toEqual(expected)
  })

  test('mentions that are not dependencies, and references in code, are not read', () => {
    expect(blockedByRefs('See #12 for the background. Related to #13.')).toEqual([])
    expect(blockedByRefs('Run `git log --grep "blocked by #12"` to check.')).toEqual([])
  })

  test('each issue once, in the order first named, from lists and prose', () => {
    expect(blockedByRefs('Depends on #5.\n\n- [ ] wire it up after #6\n- [ ] blocked by #5\n')).toEqual([5, 6])
  })
})
