import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { analysePlannerOutput, builtinPlan } from '../../src/planners/index.js'
import { readCorpus } from './corpus-score.js'

// Issue 28's later rounds: one test per rule learnt on the tuning issues 86–157 (tests/fixtures/issue-corpus/,
// never held-out/), each named by its file and the public issue whose form it follows.

const corpus = readCorpus(fileURLToPath(new URL('../fixtures/issue-corpus/', import.meta.url)))

function plan(id: string) {
  const issue = corpus.find((i) => i.id.startsWith(id))
  if (!issue) throw new Error(`no tuning issue ${id}`)
  const output = builtinPlan(issue)
  const analysis = analysePlannerOutput(output)
  const tasks = analysis.solution?.tasks ?? []
  return {
    output, analysis, tasks,
    shape: tasks.map((t) => [t.files.map((f) => f.path).join(' '), t.depends_on.join(' ')]),
    titles: tasks.map((t) => t.title),
    criteria: tasks.flatMap((t) => t.convergence.criteria),
  }
}

describe('with no task list, the work is what the prose proposes, file by file', () => {
  it('a design list whose items say what changes in which file (93, form of InfiniBrains/Awesome-GameDev-Resources#49)', () => {
    const p = plan('93-')
    expect(p.shape).toEqual([
      ['src/sync/queue.ts', ''],
      ['src/sync/flush.ts', 'T1'], // it sends the queued edits: it names the queue's module
      ['src/ui/StatusBar.tsx', 'T1'],
      ['tests/sync/flush.test.ts', 'T2'],
    ])
    // An item's sentences after its first say how that change behaves.
    expect(p.tasks[1]!.convergence.criteria).toContain('Edits are sent in the order they were made.')
  })

  it('a proposal\'s clauses that name files, one change a clause (111, form of nextcloud/mail#7027)', () => {
    expect(plan('111-').shape).toEqual([['src/settings/store.ts', ''], ['src/components/SortMenu.tsx', 'T1'], ['src/components/BookmarkList.tsx', 'T1']])
  })

  it('"…, then …" in a bug report\'s proposal, in French (91, form of CroissanceCommune/autonomie#382)', () => {
    expect(plan('91-').shape).toEqual([['src/invoices/totals.ts', ''], ['src/pdf/renderInvoice.ts', 'T1']])
  })

  it('prose goes storage → code → screen, whatever order it names them in (88, form of 0niel/university-app#457)', () => {
    expect(plan('88-').shape.map(([files]) => files)).toEqual(['migrations/005_recurring.sql', 'src/recurring/apply.ts', 'src/ui/ExpenseForm.tsx'])
  })

  it('a definition of done that says where the work goes, after a story in Spanish (98, form of qy21gafy/AMOSSharedDeskFeatureBoard#27)', () => {
    const p = plan('98-')
    expect(p.titles.join('\n')).not.toMatch(/Como socio|Quiero recibir/)
    expect(p.shape.map(([files]) => files)).toEqual(['src/jobs/recordatorios.ts src/jobs/index.ts', 'templates/recordatorio.html', 'tests/jobs/recordatorios.test.ts'])
  })

  it('acceptance items that name the files seed the work, and stay criteria (149, form of MHRA/products#878)', () => {
    const p = plan('149-')
    expect(p.shape.map(([files]) => files)).toEqual(['migrations/014_reminder_sent_for.sql', 'src/jobs/renewalReminders.ts', 'tests/jobs/renewalReminders.test.ts'])
    expect(p.criteria.some((c) => c.startsWith('A daily job in'))).toBe(true)
  })
})

describe('stated work without a criterion of its own', () => {
  it('keeps its title as the criterion, and the plan is review, not fail (84, form of truongvu2000nd/QuanLyKienNghi#2)', () => {
    const p = plan('84-')
    expect(p.analysis.gate).toBe('review')
    expect(p.analysis.quality!.findings.some((f) => f.rule === 'criterion-repeats-title')).toBe(true)
    // A paragraph right after the list of work says what it achieves.
    expect(p.criteria).toContain('Each change in the history shows the old status, the new status, who changed it and when.')
  })
})

describe('order', () => {
  it('storage → code → screen → docs for a plain list (84, form of truongvu2000nd/QuanLyKienNghi#2)', () => {
    expect(plan('84-').shape.map(([, deps]) => deps)).toEqual(['', 'T1', 'T2', 'T3'])
  })

  it('a repository comes between the migration and the service (133, form of tiagojose76/virtual-planner#41)', () => {
    expect(plan('133-').shape.slice(0, 3)).toEqual([
      ['migrations/0009_emprestimo_multa.sql', ''],
      ['biblioteca/infra/postgres/emprestimo_repo.py', 'T1'],
      ['biblioteca/aplicacao/devolver.py', 'T2'],
    ])
  })

  it('[Frontend] after [Backend] when neither names a file (118, form of Projetao-Telemedicina/psique-docs#14)', () => {
    expect(plan('118-').shape.map(([, deps]) => deps)).toEqual(['', 'T1'])
  })
})

describe('reading the document', () => {
  it('a Chinese "1、" list is a numbered list (31, form of zhuifengshen/xmind2testcase#44)', () => {
    expect(plan('31-').tasks).toHaveLength(2)
  })

  it('an HTML heading, <br> lines, a □ box and ・ bullets (44, form of tAizawa123/Training#12)', () => {
    const p = plan('44-')
    expect(p.tasks).toHaveLength(1)
    expect(p.criteria).toEqual(expect.arrayContaining(['完了済みにしたToDoが、ToDo一覧で完了済みとして表示されている']))
  })

  it('a template\'s italic hint is no heading: the acceptance list under it stays criteria (119, form of mdn/sprints#370)', () => {
    const p = plan('119-')
    expect(p.criteria).toEqual(expect.arrayContaining(['Choosing 15, 30 or 60 minutes pauses playback when the time is up']))
    expect(p.criteria.join('\n')).not.toMatch(/What can be verified/)
  })

  it('a contribution guide\'s and a PR checklist\'s boxes are not work (128, form of hiero-ledger/hiero-sdk-python#997)', () => {
    const p = plan('128-')
    expect(p.shape.map(([files]) => files)).toEqual(['src/kettle/forecast.py', 'tests/unit/test_forecast.py', 'CHANGELOG.md'])
  })

  it('a done checklist\'s process stages are not work (144, form of gigascience/gigadb-website#628)', () => {
    expect(plan('144-').titles.join('\n')).not.toMatch(/Pull request approved|Merged into develop|Shown to the product owner/)
  })
})

describe('bugs', () => {
  it('a trace wholly inside the installed package names that package\'s files (106, form of falsidge/ruo#2)', () => {
    expect(plan('106-').tasks[0]!.files.map((f) => f.path)).toContain('plantwatch/report.py')
  })

  it('a numeric target with a percentage is a criterion (123, form of optave/ops-codegraph-tool#2127)', () => {
    expect(plan('123-').criteria.join('\n')).toMatch(/within 25% of v0\.8\.0/)
  })
})
