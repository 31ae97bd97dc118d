/**
 * The board's page: the queue, the issue list and the totals. Each issue's own page (its tasks, outputs and graph)
 * is a script file of its own beside it (`issues/<n>.js`, see {@link issueScript}), loaded when the issue is opened,
 * so a board of thousands of issues opens as fast as its list. Its Content-Security-Policy allows its own inline
 * script and styles (by hash) and scripts of its own folder ('self', the only way a file:// page can load one): no
 * request leaves it. Every text from the state is escaped.
 */
import { createHash } from 'node:crypto'
import { ISSUE_STATUSES } from '../model/index.js'
import { BOARD_ISSUE_SCRIPT, BOARD_SCRIPT, BOARD_STYLE } from './client.js'
import type { BoardData, BoardIssue } from './data.js'
import { badge, cost, count, duration, plural, text, usage } from './format.js'
import { EVIDENCE_COLUMNS } from './input.js'
import { approval, issuePage, links } from './issue-page.js'
import type { TotalRow } from './totals.js'

const hashOf = (source: string) => `'sha256-${createHash('sha256').update(source).digest('base64')}'`

/** The policy, also sent as a header by `converge board --serve`. */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  `script-src ${hashOf(BOARD_ISSUE_SCRIPT)} ${hashOf(BOARD_SCRIPT)} 'self'`,
  `style-src ${hashOf(BOARD_STYLE)}`,
  "img-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ')

/** Where an issue's page is, relative to the board's page. */
export const issueScriptPath = (n: number) => `issues/${n}.js`

/**
 * An issue's page as the script file the board loads when it is opened: a call of the board's `boardIssue` with
 * the page's HTML (made and escaped here, as the list is) as a JSON string. A script file is parsed as script
 * alone (no HTML parser reads it), so a JSON string is all the quoting it needs.
 */
export function issueScript(issue: BoardIssue, svg: string): string {
  return `boardIssue(${issue.number}, ${JSON.stringify(issuePage(issue, svg))})\n`
}

export function boardPage(data: BoardData): string {
  const labels = [...new Set(data.issues.flatMap((i) => i.labels))].sort()
  const option = (value: string) => `<option value="${text(value)}">${text(value)}</option>`
  return [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${CONTENT_SECURITY_POLICY}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>Converge board · ${text(data.branch)}</title>`,
    `<style>${BOARD_STYLE}</style></head><body>`,
    '<header><h1>Converge board</h1>',
    `<p>${plural(data.issues.length, 'issue')} · state branch <code>${text(data.branch)}</code>${data.head ? ` at <code>${text(data.head.slice(0, 12))}</code>` : ' (not created yet)'} · made ${text(data.generated_at)}</p></header>`,
    '<nav aria-label="Views"><a href="#queue">Queue</a><a href="#issues">Issues</a><a href="#totals">Totals</a></nav>',
    '<main>',
    ...data.problems.map((p) => `<p class="s-failed">Could not read ${text(p)}</p>`),
    `<section id="detail" hidden role="dialog" aria-modal="true" aria-label="Issue" data-issues="${data.issues.map((i) => i.number).join(' ')}"></section>`,
    `<script>${BOARD_ISSUE_SCRIPT}</script>`,
    queueSection(data),
    '<section id="issues" aria-labelledby="issues-h"><h2 id="issues-h">Issues</h2>',
    '<form id="filters" role="search" aria-label="Filter issues">',
    '<label>Search (/)<input id="f-search" type="search" autocomplete="off"></label>',
    `<label>Status<select id="f-status"><option value="">any</option>${[...ISSUE_STATUSES, 'unknown'].map(option).join('')}</select></label>`,
    `<label>Label<select id="f-label"><option value="">any</option>${labels.map(option).join('')}</select></label>`,
    `<label>Evidence<select id="f-evidence"><option value="">any</option>${EVIDENCE_COLUMNS.map(option).join('')}</select></label>`,
    `<output id="shown" aria-live="polite">${data.issues.length} of ${data.issues.length} issues shown</output>`,
    '</form>',
    issueTable(data.issues),
    '</section>',
    totalsSection(data),
    '</main>',
    `<script>${BOARD_SCRIPT}</script>`,
    '</body></html>',
    '',
  ].join('\n')
}

function queueSection(data: BoardData): string {
  const head = '<section id="queue" aria-labelledby="queue-h"><h2 id="queue-h">Queue</h2>'
  if (!data.queue.length) return `${head}<p class="muted">The queue is empty (converge sync builds it).</p></section>`
  const rows = data.queue.map((q) => [
    `<tr><td>${text(q.item_id)}</td><td><a href="#issue-${q.issue}">#${q.issue} ${text(q.title)}</a></td><td>${badge(q.status)}</td>`,
    `<td>${q.group ? `${text(q.group)}${q.position ? ` · ${q.position}` : ''}` : '–'}</td>`,
    `<td>${q.waits.length ? `<ul class="waits">${q.waits.map((w) => `<li>${text(w)}</li>`).join('')}</ul>` : '<span class="muted">nothing: ready</span>'}</td></tr>`,
  ].join(''))
  return `${head}<table><thead><tr><th>Item</th><th>Issue</th><th>Status</th><th>Group</th><th>Waits for</th></tr></thead><tbody>${rows.join('\n')}</tbody></table></section>`
}

function issueTable(issues: readonly BoardIssue[]): string {
  const rows = issues.map((i) => {
    const kinds = EVIDENCE_COLUMNS.filter((k) => i.evidence[k] > 0)
    const evidence = kinds.length ? kinds.map((k) => `<span class="badge e-${k}">${i.evidence[k]} ${k}</span>`).join(' ') : '<span class="muted">–</span>'
    const search = `#${i.number} ${i.title} ${i.labels.join(' ')}`.toLowerCase()
    return [
      `<tr data-status="${text(i.status)}" data-labels="${text(i.labels.join('\n'))}" data-evidence="${kinds.join(' ')}" data-search="${text(search)}">`,
      `<td class="num">${i.number}</td><td><a href="#issue-${i.number}">${text(i.title)}</a></td><td>${badge(i.status)}</td>`,
      `<td>${i.gate ? badge(i.gate) : '–'}</td><td>${approval(i)}</td><td>${evidence}</td>`,
      `<td class="num">${i.attempts}</td><td class="num">${duration(i.duration_ms)}</td><td class="num">${cost(i.cost_usd)}</td><td class="num">${count(i.tokens)}</td>`,
      `<td>${links(i)}</td></tr>`,
    ].join('')
  })
  return [
    '<table id="issue-table"><thead><tr><th class="num">#</th><th>Title</th><th>Status</th><th>Gate</th><th>Approval</th><th>Evidence</th>',
    '<th class="num">Attempts</th><th class="num">Duration</th><th class="num">Cost</th><th class="num">Tokens</th><th>Links</th></tr></thead>',
    `<tbody>${rows.join('\n')}</tbody></table>`,
  ].join('')
}

function totalsSection(data: BoardData): string {
  const t = data.totals
  const table = (caption: string, first: string, rows: TotalRow[]) => rows.length
    ? `<table><caption>${caption}</caption><thead><tr><th>${first}</th><th class="num">Tasks</th><th class="num">Cost</th><th class="num">Tokens</th></tr></thead><tbody>${rows.map((r) => `<tr><td>${text(r.key)}</td><td class="num">${r.tasks}</td><td class="num">${cost(r.cost_usd)}</td><td class="num">${count(r.tokens)}</td></tr>`).join('')}</tbody></table>`
    : `<p class="muted">${caption}: no task has run yet.</p>`
  const evidence = EVIDENCE_COLUMNS.map((k) => `<tr><td>${badge(k, 'e')}</td><td class="num">${t.evidence[k]}</td></tr>`).join('')
  return [
    '<section id="totals" aria-labelledby="totals-h"><h2 id="totals-h">Totals</h2>',
    `<p>${plural(t.tasks, 'task')} run across ${plural(t.issues, 'issue')} · agent cost: ${usage(t.cost_usd, t.tokens)}</p>`,
    '<div class="grid2">',
    table('Per day (UTC)', 'Day', t.by_day),
    table('Per agent', 'Agent', t.by_agent),
    `<table><caption>Evidence of finished tasks</caption><thead><tr><th>Kind</th><th class="num">Tasks</th></tr></thead><tbody>${evidence}</tbody></table>`,
    '</div></section>',
  ].join('\n')
}
