import { describe, expect, it } from 'vitest'
import { analysePlannerOutput, builtinPlan, type IssueDocument } from '../../src/planners/index.js'
import { isHousekeeping } from '../../src/planners/process-steps.js'

// Issues as templates and issue forms shape them, in four languages. Written for these tests.

function plan(body: string, issue: Partial<IssueDocument> = {}) {
  const output = builtinPlan({ number: 12, title: 'Something is off', body, labels: [], ...issue })
  const analysis = analysePlannerOutput(output)
  return { output, analysis, solution: analysis.solution, tasks: analysis.solution?.tasks ?? [] }
}

const titles = (p: ReturnType<typeof plan>) => p.tasks.map((t) => t.title)
const criteria = (p: ReturnType<typeof plan>) => p.tasks.flatMap((t) => t.convergence.criteria)

describe('template checkboxes are never tasks', () => {
  it.each([
    ['English issue form', '### Is there an existing issue for this?\n\n- [X] I have searched the existing issues\n\n### Current Behavior\n\nThe export button does nothing.\n\n### Expected Behavior\n\nClicking export downloads a CSV file.\n'],
    ['English confirmations outside a section', 'The export button does nothing.\n\n- [x] I am on the latest version\n- [ ] I have read the FAQ\n'],
    ['Chinese', '### 请确认\n\n- [x] 我已经搜索过现有的问题\n- [x] 我已阅读文档\n\n### 问题描述\n\n导出按钮没有反应。\n\n### 期望行为\n\n点击导出后下载 CSV 文件。\n'],
    ['Portuguese', '## Verificações\n\n- [x] Já pesquisei issues parecidas\n- [x] A issue possui labels\n\n## Descrição\n\nO botão de exportar não faz nada.\n\n## Comportamento esperado\n\nAo clicar, um arquivo CSV é baixado.\n'],
    ['Japanese', '## 確認事項\n\n- [x] 既存のIssueを検索しました\n- [x] 最新版で確認しました\n\n## 問題\n\nエクスポートボタンを押しても何も起きない。\n\n## 期待される動作\n\nCSV ファイルがダウンロードされる。\n'],
  ])('%s', (_name, body) => {
    const p = plan(body, { title: 'Export button does nothing' })
    expect(p.tasks).toHaveLength(1)
    expect(titles(p)).toEqual(['Export button does nothing'])
    expect(p.output.notes.join('\n')).not.toMatch(/made \d+ tasks? from the task list/)
  })

  it('leaves a "type of issue" choice list out, but keeps a lone task named like a kind', () => {
    const p = plan("I'm opening this issue because:\n\n- [x] npm is crashing\n- [ ] a package is missing\n\nIt crashes on install.\n", { title: 'Install crashes' })
    expect(titles(p)).toEqual(['Install crashes'])
    const choices = plan('## Type of change\n\n- [x] Bug fix\n- [ ] New feature\n- [ ] Documentation\n\nThe form resets.', { title: 'Form resets on submit' })
    expect(titles(choices)).toEqual(['Form resets on submit'])
    expect(choices.output.notes).toContain("3 template checkboxes (the reporter's confirmations, the type of issue) left out of the tasks")
  })
})

describe('expected behaviour is the criterion', () => {
  it.each([
    ['## Expected', '## Steps\n\n1. open the page\n\n## Expected\n\nThe list is sorted by date.\n', 'The list is sorted by date.'],
    ['**Expected behavior**', '**Describe the bug**\n\nThe list is not sorted.\n\n**Expected behavior**\n\nThe list is sorted by date.\n', 'The list is sorted by date.'],
    ['### Expected behavior (issue form)', '### What happened?\n\nUnsorted.\n\n### Expected behavior\n\nThe list is sorted by date.\n\n### Version\n\n_No response_\n', 'The list is sorted by date.'],
    ['期望行为', '### 问题描述\n\n列表没有排序。\n\n### 期望行为\n\n列表按日期排序。\n', '列表按日期排序。'],
    ['Comportamento esperado', '## Descrição do bug\n\nA lista não é ordenada.\n\n## Comportamento esperado\n\nA lista é ordenada por data.\n', 'A lista é ordenada por data.'],
    ['期待される動作', '## 不具合の内容\n\n一覧が並び替えられない。\n\n## 期待される動作\n\n一覧が日付順に並ぶ。\n', '一覧が日付順に並ぶ。'],
    ['Erwartetes Verhalten', '## Beschreibung\n\nDie Liste ist unsortiert.\n\n## Erwartetes Verhalten\n\nDie Liste ist nach Datum sortiert.\n', 'Die Liste ist nach Datum sortiert.'],
    ['an "Expected:" line in the steps', '## Steps to reproduce\n\n1. call `GET /items/99`\n2. look at the status\n\nExpected: 404 with an error body\nActual: 500\n', '404 with an error body'],
  ])('%s', (_name, body, criterion) => {
    const p = plan(body, { title: 'List order is wrong' })
    expect(criteria(p)).toContain(criterion)
    expect(p.analysis.quality!.findings.map((f) => f.rule)).not.toContain('no-criteria')
  })

  it('an unanswered expected-behaviour field is no criterion', () => {
    expect(criteria(plan('### Expected behavior\n\n_No response_\n'))).toEqual([])
  })
})

describe('a bug report is a fix', () => {
  it.each([
    ['bug label', { labels: ['bug'] }, 'It crashes.'],
    ['[Bug] title', { title: '[Bug]: crash on empty input' }, 'It crashes.'],
    ['bug template sections', {}, '## Steps to reproduce\n\n1. run it\n\n## Expected behavior\n\nNo crash.\n\n## Actual behavior\n\nA crash.\n'],
    ['Chinese bug form', {}, '### 问题描述\n\n程序崩溃。\n\n### 复现步骤\n\n1. 运行\n\n### 预期结果\n\n不崩溃。\n'],
  ])('%s', (_name, issue, body) => {
    const p = plan(body, { title: 'Crash on empty input', ...issue })
    expect(p.tasks[0]).toMatchObject({ type: 'fix', action: 'Fix' })
    expect(p.solution!.strategy_type).toBe('bugfix')
  })

  it('gives the executor the steps to reproduce and the environment, and takes the description from the problem, not template metadata', () => {
    const p = plan('### Version\n\n1.4.2\n\n### Describe the bug\n\nSaving an empty note crashes the app.\n\n### To Reproduce\n\n1. Open a new note\n2. Press save\n\n### Expected behavior\n\nAn empty note is saved.\n', { title: 'Crash when saving' })
    expect(p.tasks[0]!.description).toBe('Saving an empty note crashes the app.\n\nSteps to reproduce:\n1. Open a new note\n2. Press save\n\nEnvironment: 1.4.2')
    expect(p.solution!.description).toBe('Saving an empty note crashes the app.')
  })

  it('a feature label keeps a feature a feature', () => {
    const p = plan('## Expected behavior\n\nA dark theme.\n', { labels: ['enhancement'] })
    expect(p.tasks[0]!.type).not.toBe('fix')
  })
})

describe('ticked means done', () => {
  it.each([
    ['English', '- [x] Add the model\n- [ ] Add the endpoint\n- [ ] Document it\n', ['Add the endpoint', 'Document it'], ['Add the model']],
    ['Chinese', '## 任务\n\n- [x] 添加数据模型\n- [ ] 添加接口\n', ['添加接口'], ['添加数据模型']],
    ['Portuguese', '## Tarefas\n\n- [x] Criar o modelo\n- [ ] Criar a rota\n', ['Criar a rota'], ['Criar o modelo']],
    ['Japanese', '## タスク\n\n- [x] モデルを追加\n- [ ] API を追加\n', ['API を追加'], ['モデルを追加']],
  ])('%s: ticked items are recorded as done, not planned', (_name, body, open, done) => {
    const p = plan(body)
    expect(titles(p)).toEqual(open)
    expect(p.solution!.already_done).toEqual(done)
  })

  it('an open item nested under a done one does not wait for it', () => {
    const p = plan('- [x] Add the API\n  - [ ] Add the client\n- [ ] Add the CLI\n')
    expect(p.tasks.map((t) => [t.title, t.depends_on])).toEqual([['Add the client', []], ['Add the CLI', []]])
  })

  it('a plan whose items are all ticked says so instead of planning work', () => {
    const p = plan('- [x] Add the model\n- [x] Add the endpoint\n')
    expect(p.solution).toBeUndefined()
    expect(p.output.error).toMatchObject({ code: 'nothing_to_plan', message: expect.stringContaining('ticked as done (2)') })
    expect(p.analysis.gate).toBe('fail')
  })
})

describe('order stated in words', () => {
  it('numbered steps run in order', () => {
    const p = plan('## Steps\n\n1. Add the column\n2. Backfill it\n3. Read from it\n')
    expect(p.tasks.map((t) => t.depends_on)).toEqual([[], ['T1'], ['T2']])
  })

  it.each([
    ['then', '- [ ] Add the column\n- [ ] Then backfill it\n', [[], ['T1']]],
    ['然后', '- [ ] 添加字段\n- [ ] 然后回填数据\n', [[], ['T1']]],
    ['Em seguida', '- [ ] Adicionar a coluna\n- [ ] Em seguida, preencher os dados\n', [[], ['T1']]],
    ['その後', '- [ ] カラムを追加\n- [ ] その後、データを移行\n', [[], ['T1']]],
    ['once the rest is done', '- [ ] Add the column\n- [ ] Add the index\n- [ ] Run the checklist once the rest is done\n', [[], [], ['T1', 'T2']]],
    ['after <name>', '- [ ] Write the migration\n- [ ] Add the API\n- [ ] Drop the old table (after the migration)\n', [[], [], ['T1']]],
    ['once <name> is merged', '- [ ] Change the schema\n- [ ] Update the docs once the schema change is merged\n', [[], ['T1']]],
    ['…完成后', '- [ ] 编写迁移脚本\n- [ ] 迁移完成后删除旧表\n', [[], ['T1']]],
    ['depois da', '- [ ] Criar a migração\n- [ ] Remover a tabela antiga depois da migração\n', [[], ['T1']]],
    ['の後', '- [ ] マイグレーションを作成\n- [ ] マイグレーションの後で旧テーブルを削除\n', [[], ['T1']]],
  ])('%s', (_name, body, dependsOn) => {
    expect(plan(body).tasks.map((t) => t.depends_on)).toEqual(dependsOn)
  })
})

describe('a vague issue is asked for what is missing', () => {
  it('a one-line bug report asks for the expected behaviour, the steps, the place and a command', () => {
    const p = plan('It does not work sometimes.', { labels: ['bug'], title: 'Login broken' })
    expect(p.output.questions).toEqual([
      'the expected behaviour (what should happen instead)',
      'steps to reproduce',
      'the file or area to change (a path in backticks)',
      'a command that shows it works (e.g. `npm test -- <name>`)',
    ])
  })

  it('a well-described issue is asked nothing', () => {
    const p = plan('Fix `src/login.ts`.\n\n## Steps to reproduce\n\n1. log in\n\n## Expected\n\nThe session lasts a day.\n\n## Verification\n\n```sh\nnpm test -- login\n```\n', { labels: ['bug'] })
    expect(p.output.questions).toBeUndefined()
  })
})

describe('work written in the first person plural stays work', () => {
  it('"We need …" is a task, "We have searched …" is not', () => {
    const p = plan('- [ ] We need a migration for the new column\n- [ ] We have searched the existing issues\n')
    expect(titles(p)).toEqual(['We need a migration for the new column'])
  })
})

describe('criteria from the prose when the issue has no criteria section', () => {
  it.each([
    ['English', 'The export drops the tags. The CSV should have a tags column.', 'The CSV should have a tags column.'],
    ['Chinese', '导出时丢失了标签。导出的 CSV 应该包含标签列。', '导出的 CSV 应该包含标签列。'],
    ['Portuguese', 'A exportação perde as tags. O CSV deve ter uma coluna de tags.', 'O CSV deve ter uma coluna de tags.'],
    ['Japanese', 'エクスポートでタグが消える。CSV にタグ列を含めるべきです。', 'CSV にタグ列を含めるべきです。'],
  ])('%s: a sentence that says what must be true is the criterion', (_name, body, criterion) => {
    expect(criteria(plan(body, { title: 'Export the tags' }))).toEqual([criterion])
  })

  it('a question is no criterion, and a stated criterion wins', () => {
    expect(criteria(plan('Should the CSV have a tags column?'))).toEqual([])
    expect(criteria(plan('It should be fast.\n\n## Acceptance criteria\n\n- export of 1,000 notes takes under a second\n'))).toEqual(['export of 1,000 notes takes under a second'])
  })
})

describe('the kind of work', () => {
  it('a documentation label, or only documents touched, is docs work', () => {
    expect(plan('Explain the flags.', { labels: ['documentation'] }).solution!.strategy_type).toBe('docs')
    expect(plan('- [ ] Describe the flags in `docs/cli.md`\n- [ ] Link it from `README.md`\n').solution!.strategy_type).toBe('docs')
  })
})

describe('other ways issues are structured', () => {
  it('wiki-style headings (== Expected ==) are headings, outside code only', () => {
    const p = plan('== Steps to reproduce ==\n1. open the ranking\n\n== Expected result ==\nTied players share a rank.\n\n```\n== not a heading ==\n```\n', { title: 'Ranks of tied players' })
    expect(criteria(p)).toEqual(['Tied players share a rank.'])
    expect(p.tasks[0]!.type).toBe('fix')
  })

  it('numbered headings of a design note are the tasks, in order, titled by the heading', () => {
    const body = '## Design\n\n### 1. Data model\n\nAdd `dependsOn` to the task type in `src/board/model.ts`.\n\n### 2. Status\n\nOn top of the data model of step 1, compute the status in `src/board/status.ts`.\n\n### 3. Board\n\nOnce the status is done, show a lock in `web/Board.tsx`.\n'
    const p = plan(body, { title: 'Task dependencies on the board' })
    expect(p.tasks.map((t) => [t.title, t.files.map((f) => f.path), t.depends_on])).toEqual([
      ['Data model', ['src/board/model.ts'], []],
      ['Status', ['src/board/status.ts'], ['T1']],
      ['Board', ['web/Board.tsx'], ['T2']],
    ])
    expect(p.output.notes[0]).toBe('no task list (- [ ] items) and no Tasks/Steps/Plan section: made 3 tasks from the numbered headings')
  })
})

describe('isHousekeeping: a meeting or a report shared is process, in the corpus languages (issue 38)', () => {
  it('reads meetings and announcements as process, and a feature about meetings as work', () => {
    for (const step of ['Schedule a retro with the team', 'Share the report in #eng', 'ポストモーテムのミーティングで結果をレビューする', '社内チャンネルでこのレポートを共有する', '召开复盘会议', '회의에서 검토', 'Agendar uma reunião com o time', 'Tenir une réunion de suivi'])
      expect(isHousekeeping(step), step).toBe(true)
    for (const work of ['ミーティング機能を追加する', 'Add a meeting room picker to `src/rooms/Picker.tsx`', 'Share button on the report page'])
      expect(isHousekeeping(work), work).toBe(false)
  })
})
