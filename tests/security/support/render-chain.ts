/**
 * Plans and renders a dependency chain of `argv[2]` tasks the way Converge does (read, analyse, execution.md, the
 * issue comment) and prints the sizes; run in a child process, so the test can give it a smaller call stack.
 */
import { runSchedule } from '../../../src/execute/schedule.js'
import { fenced } from '../../../src/planners/plan-prompt.js'
import { analysePlan } from '../../../src/plan/analyse.js'
import { parseSolution } from '../../../src/plan/read.js'
import { renderExecutionMarkdown } from '../../../src/report/execution-md.js'
import { renderIssueComment } from '../../../src/report/issue-comment.js'

const count = Number(process.argv[2])
const tasks = Array.from({ length: count }, (_, i) => ({
  id: `T${i + 1}`, title: `Step ${i + 1} of the chain`, description: 'Write the next link of the chain.',
  files: [{ path: `src/link-${i}.ts`, action: 'modify', changes: 'write the link' }],
  depends_on: i ? [`T${i}`] : [], convergence: { criteria: ['the link is written'], verification: ['test -f src/link.ts'] },
}))
const parsed = parseSolution({ id: 'SOL-ISS-1-1', issue_id: 'ISS-1', description: 'A long chain', strategy_type: 'chain', tasks, is_bound: true })
if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors.slice(0, 3)))
const analysis = analysePlan(parsed.solution)
const report = { issue: { number: 1, title: 'Chain' }, status: 'planned' as const, solution: parsed.solution, analysis, commandPrefix: '/converge', links: {} }
const markdown = renderExecutionMarkdown(report)
const comment = renderIssueComment(report)
// An issue text with as many backtick runs as tasks, fenced for the planner's prompt.
const prompt = fenced('` '.repeat(count))
// A fan: T1 fails, T2 depends on it and `count` tasks on T2; every one of them is skipped.
const fan = parseSolution({
  id: 'SOL-ISS-1-2', issue_id: 'ISS-1', description: 'A fan', strategy_type: 'fan', is_bound: true,
  tasks: tasks.map((t, i) => ({ ...t, depends_on: i === 0 ? [] : i === 1 ? ['T1'] : ['T2'] })),
})
if (!fan.ok) throw new Error(JSON.stringify(fan.errors.slice(0, 3)))
const schedule = await runSchedule(fan.solution.tasks, { maxParallel: 1, onFailure: 'skip', runTask: async () => 'failed' })
const skipped = [...schedule.results.values()].filter((r) => r.status === 'skipped').length
console.log(JSON.stringify({ waves: analysis.dag?.waves.length, markdown: markdown.length, comment: comment.length, prompt: prompt.length, skipped }))
