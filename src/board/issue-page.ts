/** One issue's page: its facts, task graph (SVG made by graph.ts), every task with its checks and evidence, its timeline. */
import type { BoardIssue, BoardRun, BoardTask } from './data.js'
import { KIND_LABEL } from '../report/evidence-words.js'
import { badge, duration, inlineCode, labelBadge, link, plural, shortHash, text, usage } from './format.js'

export function issuePage(issue: BoardIssue, svg: string): string {
  const n = issue.number
  return [
    `<p><a href="#issues">← All issues</a> <span class="muted">(Esc)</span></p>`,
    `<h2 tabindex="-1">ISS-${n}: ${text(issue.title)}</h2>`,
    '<dl class="facts">',
    `<dt>Status</dt><dd>${badge(issue.status)}${issue.error ? ` ${text(issue.error)}` : ''}</dd>`,
    `<dt>Plan</dt><dd>${issue.solution_id ? text(issue.solution_id) : '<span class="muted">none</span>'}${issue.gate ? ` · gate ${badge(issue.gate)}${issue.quality_score === null ? '' : ` ${issue.quality_score}/100`}` : ''}</dd>`,
    `<dt>Approval</dt><dd>${approval(issue)}</dd>`,
    `<dt>Waits for</dt><dd>${issue.waits.length ? text(issue.waits.join('; ')) : '<span class="muted">nothing</span>'}</dd>`,
    ...(issue.parent ? [`<dt>Epic</dt><dd><a href="#issue-${issue.parent}">#${issue.parent}</a></dd>`] : []),
    ...(issue.children.length ? [`<dt>Children</dt><dd>${issue.children.map((c) => `<a href="#issue-${c}">#${c}</a>`).join(', ')}</dd>`] : []),
    `<dt>Attempts</dt><dd>${issue.attempts}</dd>`,
    `<dt>Duration</dt><dd>${duration(issue.duration_ms)}</dd>`,
    `<dt>Agent cost</dt><dd>${usage(issue.cost_usd, issue.tokens)}</dd>`,
    `<dt>Links</dt><dd>${links(issue)}</dd>`,
    ...(issue.labels.length ? [`<dt>Labels</dt><dd>${issue.labels.map((l) => `<code>${text(l)}</code>`).join(' ')}</dd>`] : []),
    '</dl>',
    ...issue.problems.map((p) => `<p class="s-failed">Could not read ${text(p)}</p>`),
    issue.tasks_hidden
      ? `<p class="muted">Its plan has ${plural(issue.tasks_hidden, 'task')}, more than the board shows in detail: the issue is shown as a summary (its evidence counts are in the list).</p>`
      : issue.tasks.length ? `<h3>Task graph</h3><div class="graph-box">${svg}</div>` : '<p class="muted">No plan yet.</p>',
    ...issue.tasks.map((t) => taskArticle(n, t)),
    '<h3>Timeline</h3>',
    issue.timeline.length
      ? `<ol class="timeline">${issue.timeline.map((e) => `<li><time>${text(e.at)}</time> <strong>${text(e.subject)}</strong>: ${text(e.what)}${e.detail ? ` <span class="muted">${text(e.detail)}</span>` : ''}</li>`).join('')}</ol>`
      : '<p class="muted">No events recorded.</p>',
  ].join('\n')
}

export function approval(issue: BoardIssue): string {
  const a = issue.approval
  if (!a) return '<span class="muted">not approved</span>'
  return `@${text(a.by)} · <code>${shortHash(a.hash)}</code>${a.current ? '' : ' <span class="s-failed">(an earlier version of the plan)</span>'}`
}

export function links(issue: BoardIssue): string {
  const l = issue.links
  const parts = [l.issue ? link(`#${issue.number}`, l.issue) : `#${issue.number}`, ...(l.pull_request ? [link('pull request', l.pull_request)] : [])]
  parts.push(l.branch_url ? link(l.branch, l.branch_url) : `<code>${text(l.branch)}</code>`)
  return parts.join(' · ')
}

function taskArticle(n: number, t: BoardTask): string {
  const facts = [
    `<dt>Wave</dt><dd>${t.wave ?? '–'}${t.depends_on.length ? ` · after ${text(t.depends_on.join(', '))}` : ''}</dd>`,
    `<dt>Files</dt><dd>${filesList(t)}</dd>`,
    `<dt>Attempts</dt><dd>${t.attempts} · ${duration(t.duration_ms)}</dd>`,
    `<dt>Agent</dt><dd>${text(t.agent)} · ${usage(t.cost_usd, t.tokens)}</dd>`,
    `<dt>Commit</dt><dd>${t.commit ? `<code>${text(t.commit.slice(0, 12))}</code>` : '<span class="muted">none</span>'}</dd>`,
    ...(t.error ? [`<dt>Error</dt><dd class="s-failed">${text(t.error)}</dd>`] : []),
  ]
  return [
    `<article class="task" id="task-${n}-${text(t.id)}" tabindex="-1" aria-labelledby="task-${n}-${text(t.id)}-h">`,
    `<h3 id="task-${n}-${text(t.id)}-h">${text(t.id)}: ${text(t.title)} ${taskBadge(t)}</h3>`,
    `<dl class="facts">${facts.join('')}</dl>`,
    checksTable(t),
    evidenceBlock(t),
    '</article>',
  ].join('\n')
}

/** The task's badge: its state, or what its evidence is when it completed unproven ("changed nothing"). */
export function taskBadge(t: BoardTask): string {
  return t.badge === t.state || !t.evidence ? badge(t.state) : labelBadge(t.badge, `e-${t.evidence.kind}`)
}

function filesList(t: BoardTask): string {
  if (!t.files.length) return '<span class="muted">none named</span>'
  const items = t.files.map((f) => {
    const lines = f.binary ? ' <span class="muted">binary</span>' : f.added !== null || f.removed !== null ? ` <span class="added">+${f.added ?? 0}</span> <span class="removed">−${f.removed ?? 0}</span>` : ''
    const what = [f.action ? text(f.action) : 'not in the plan', ...(f.changed && !lines ? ['changed'] : [])].join(', ')
    const check = f.check ? ' <strong class="check-file">check file it wrote or changed itself</strong>' : ''
    return `<li${f.check ? ' class="check-file"' : ''}><code>${text(f.path)}</code>${lines} <span class="muted">(${what})</span>${check}</li>`
  })
  return `<ul class="files">${items.join('')}</ul>`
}

const HOW: Record<BoardTask['checks'][number]['how'], string> = { command: 'command', agent: "the agent's report", manual: 'a person' }

/** A check's verdict: one only the agent's report gives is its claim, never a pass. */
function verdict(c: BoardTask['checks'][number]): string {
  if (c.how === 'agent' && c.verdict === 'pass') return labelBadge('claimed by the agent', 's-claimed')
  return badge(c.verdict)
}

function checksTable(t: BoardTask): string {
  if (!t.checks.length) return '<p class="muted">No criteria or commands.</p>'
  const rows = t.checks.map((c) => [
    `<tr><td>${c.kind === 'command' ? `<code>${text(c.text)}</code>` : inlineCode(c.text)}</td><td>${HOW[c.how]}</td><td>${verdict(c)}</td>`,
    `<td class="num">${c.exit_code ?? '–'}</td><td class="num">${duration(c.duration_ms)}</td></tr>`,
    c.output_tail ? `<tr><td colspan="5"><details><summary>output of <code>${text(c.text.slice(0, 60))}</code></summary><pre>${text(c.output_tail)}</pre></details></td></tr>` : '',
  ].join(''))
  return `<table><caption class="muted">Criteria and how each is checked</caption><thead><tr><th>Check</th><th>How</th><th>Verdict</th><th class="num">Exit</th><th class="num">Time</th></tr></thead><tbody>${rows.join('')}</tbody></table>`
}

function runsTable(label: string, list: readonly BoardRun[]): string {
  if (!list.length) return ''
  return `<h4>${label}</h4><table><thead><tr><th>Command</th><th class="num">Exit</th><th class="num">Time</th></tr></thead><tbody>${list.map((r) => [
    `<tr><td><code>${text(r.command)}</code></td><td class="num">${r.exit_code ?? 'killed'}</td><td class="num">${duration(r.duration_ms ?? null)}</td></tr>`,
    r.output_tail ? `<tr><td colspan="3"><details><summary>output</summary><pre>${text(r.output_tail)}</pre></details></td></tr>` : '',
  ].join('')).join('')}</tbody></table>`
}

function evidenceBlock(t: BoardTask): string {
  const e = t.evidence
  if (!e) return '<p class="muted">Evidence: not run yet.</p>'
  const label = e.kind === 'not-recorded' ? 'not recorded' : KIND_LABEL[e.kind]
  return [
    `<div class="evidence"><p>Evidence: ${labelBadge(label, `e-${e.kind}`)} ${inlineCode(e.sentence)}</p>`,
    e.check_files.length ? `<p class="check-file">Its proof rests on check files it wrote or changed itself: ${e.check_files.map((f) => `<code>${text(f)}</code>`).join(', ')}</p>` : '',
    runsTable('Before the change', e.before),
    runsTable('After the change', e.after),
    ...(e.differential ? [runsTable('Differential run (forward)', e.differential.forward), runsTable('Differential run (reverse)', e.differential.reverse)] : []),
    '</div>',
  ].join('')
}
