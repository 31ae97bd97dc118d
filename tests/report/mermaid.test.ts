// @vitest-environment happy-dom
import fc from 'fast-check'
import { beforeAll, describe, expect, it } from 'vitest'
import type { Solution } from '../../src/model/index.js'
import { renderIssueComment } from '../../src/report/issue-comment.js'
import { mermaidIds, mermaidLabel, renderTaskGraph } from '../../src/report/mermaid.js'
import type { RunReport } from '../../src/report/run-report.js'
import { buildView } from '../../src/report/task-view.js'
import * as fx from './fixtures.js'

/**
 * Mermaid's own flowchart parser, the one GitHub runs. It needs a DOM (DOMPurify), which happy-dom
 * provides; `@mermaid-js/parser` has no flowchart grammar.
 */
type Mermaid = typeof import('mermaid').default
let mermaid: Mermaid

interface FlowDb {
  getVertices(): Map<string, { id: string; classes: string[] }>
  getEdges(): Array<{ start: string; end: string }>
}

beforeAll(async () => {
  mermaid = (await import('mermaid')).default
  mermaid.initialize({ startOnLoad: false })
})

async function parseFlowchart(text: string): Promise<FlowDb> {
  await mermaid.parse(text)
  const diagram = await mermaid.mermaidAPI.getDiagramFromText(text)
  return diagram.db as unknown as FlowDb
}

function mermaidBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/^```mermaid\n([\s\S]*?)\n```$/gm)].map((m) => m[1]!)
}

describe('the task graph parses with Mermaid', () => {
  it.each<[string, () => RunReport]>([
    ['a fresh plan', fx.freshPlan],
    ['a run in progress', fx.inProgress],
    ['a run with failures', fx.withFailures],
    ['a converged run', fx.converged],
  ])('%s', async (_, make) => {
    const report = make()
    const [graph] = mermaidBlocks(renderIssueComment(report))
    expect(graph).toBeDefined()
    const db = await parseFlowchart(graph!)
    const tasks = report.solution!.tasks
    expect([...db.getVertices().keys()]).toEqual(tasks.map((t) => t.id))
    expect(db.getEdges().map((e) => `${e.start}->${e.end}`)).toEqual(tasks.flatMap((t) => t.depends_on.map((d) => `${d}->${t.id}`)))
  })

  it('colours each node by the state of its task', async () => {
    const db = await parseFlowchart(mermaidBlocks(renderIssueComment(fx.withFailures()))[0]!)
    const classes = Object.fromEntries([...db.getVertices().values()].map((v) => [v.id, v.classes]))
    expect(classes).toEqual({ T1: ['converged'], T2: ['converged'], T3: ['failed'], T4: ['converged'], T5: ['blocked'] })
  })

  it('whatever the titles and ids: quotes, brackets, #, <, >, backticks, pipes, unicode, keywords', async () => {
    const title = fc.oneof(
      fc.string({ unit: 'grapheme', maxLength: 60 }),
      fc.constantFrom('"quoted" [x] (y) {z}', '#35; #quot; &amp; <b>', '`code` | pipe ; semi', 'end', 'A --> B', '%% comment', 'クラス 🚀 ü', '<script>x</script>'),
    )
    const id = fc.oneof(fc.constantFrom('T1', 'end', 'graph', 'o1', 'x2', 'class', '1st', 'a-b', 'a b'), fc.string({ minLength: 1, maxLength: 8 }))
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(id, title), { minLength: 1, maxLength: 8 }), async (entries) => {
        const solution = fx.demoSolution()
        const tasks = entries.map(([taskId, taskTitle], i) => ({
          ...solution.tasks[0]!, id: taskId, title: taskTitle || 'x', depends_on: i ? [entries[i - 1]![0]] : [],
        }))
        const view = buildView({ ...fx.freshPlan(), solution: { ...solution, tasks } as Solution })
        const graph = renderTaskGraph(view.tasks)!
        const db = await parseFlowchart(graph)
        expect(db.getVertices().size).toBe(new Set(mermaidIds(tasks.map((t) => t.id))).size)
      }),
      { numRuns: 60 },
    )
  })
})

describe('labels and ids', () => {
  it('writes syntax characters as entity codes', () => {
    expect(mermaidLabel('Say "hi" #1 <b> & `x`\nnext')).toBe('Say #34;hi#34; #35;1 #60;b#62; #38; #96;x#96; next')
  })

  it('sanitises ids, keeps them distinct and away from keywords', () => {
    expect(mermaidIds(['T1', 'a-b', 'a_b', 'end', '1st', 'T1'])).toEqual(['T1', 'a_b', 'a_b_2', 'task_end', 'task_1st', 'T1_2'])
  })
})
