/**
 * The page's own script and styles, inlined and allowed by hash in its Content-Security-Policy. The script filters
 * the rows the page holds, and shows an issue by loading its page (`issues/<n>.js`, made and escaped when the board
 * was made, as the list is) once, into an inert <template> it clones from then on. It makes no markup of its own
 * from any text.
 */

/**
 * The issue panel's script, right after the panel and before the lists: a link to an issue (`#issue-N`) loads its
 * page while the lists are still being parsed, and shows it the moment it arrives, not after a thousand rows.
 * The issues the board has are the panel's `data-issues`.
 */
export const BOARD_ISSUE_SCRIPT = `(() => {
  const detail = document.getElementById('detail')
  const known = new Set(detail.dataset.issues.split(' '))
  const pages = new Map()
  const loading = new Set()
  let wanted = null
  const say = (words, cls) => {
    const p = document.createElement('p')
    p.textContent = words
    if (cls) p.className = cls
    const back = document.createElement('p')
    const link = document.createElement('a')
    link.href = '#issues'
    link.textContent = '← All issues'
    back.append(link)
    detail.replaceChildren(back, p)
    detail.hidden = false
  }
  // Called by issues/<n>.js: the issue's page, made and escaped with the board, parsed in an inert template.
  window.boardIssue = (n, html) => {
    const template = document.createElement('template')
    template.innerHTML = html
    pages.set(String(n), template)
    if (wanted && wanted[1] === String(n)) route()
  }
  const load = (n) => {
    if (loading.has(n)) return
    loading.add(n)
    const script = document.createElement('script')
    script.src = 'issues/' + n + '.js'
    script.onerror = () => {
      loading.delete(n)
      if (wanted && wanted[1] === n) say('Could not load issues/' + n + '.js: the board folder is incomplete.', 's-failed')
    }
    document.head.append(script)
  }
  const route = () => {
    const match = /^#issue-(\\d+)(?:-(T\\d+))?$/.exec(location.hash)
    wanted = match && known.has(match[1]) ? match : null
    if (!wanted) {
      detail.hidden = true
      detail.replaceChildren()
      return
    }
    const template = pages.get(wanted[1])
    if (!template) {
      say('Loading ISS-' + wanted[1] + '…', 'muted')
      load(wanted[1])
      return
    }
    detail.replaceChildren(template.content.cloneNode(true))
    detail.hidden = false
    const target = (match[2] && document.getElementById('task-' + match[1] + '-' + match[2])) || detail.querySelector('h2')
    target.focus()
    target.scrollIntoView({ block: 'start' })
  }
  addEventListener('hashchange', route)
  route()
})()
`

/** The lists' script, at the end of the page: the filters, and the keys. */
export const BOARD_SCRIPT = `(() => {
  const rows = [...document.querySelectorAll('#issue-table tbody tr')]
  const form = document.getElementById('filters')
  const field = (id) => document.getElementById(id)
  const shown = field('shown')
  const filter = () => {
    const query = field('f-search').value.trim().toLowerCase()
    const status = field('f-status').value
    const label = field('f-label').value
    const evidence = field('f-evidence').value
    let count = 0
    for (const row of rows) {
      const match = (!status || row.dataset.status === status)
        && (!label || row.dataset.labels.split('\\n').includes(label))
        && (!evidence || row.dataset.evidence.split(' ').includes(evidence))
        && (!query || row.dataset.search.includes(query))
      row.hidden = !match
      if (match) count++
    }
    shown.textContent = count + ' of ' + rows.length + ' issues shown'
  }
  form.addEventListener('input', filter)
  form.addEventListener('submit', (event) => event.preventDefault())
  const detail = field('detail')
  addEventListener('keydown', (event) => {
    const typing = event.target instanceof HTMLInputElement || event.target instanceof HTMLSelectElement
    if (event.key === '/' && !typing) {
      event.preventDefault()
      field('f-search').focus()
    } else if (event.key === 'Escape' && !detail.hidden) {
      location.hash = '#issues'
    }
  })
  filter()
})()
`

export const BOARD_STYLE = `
:root { color-scheme: light; --ink: #1b1f24; --muted: #4d5560; --line: #d0d7de; --bg: #ffffff; --panel: #f6f8fa;
  --ok: #1a7f37; --bad: #b42318; --warn: #8a5300; --info: #0b5cad; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--ink); background: var(--bg); }
header { padding: 16px 24px 8px; border-bottom: 1px solid var(--line); }
header h1 { margin: 0 0 4px; font-size: 20px; }
header p { margin: 0; color: var(--muted); }
nav { display: flex; gap: 16px; padding: 8px 24px; border-bottom: 1px solid var(--line); background: var(--panel); }
main { padding: 8px 24px 32px; }
section { margin: 16px 0 24px; }
h2 { font-size: 17px; margin: 0 0 8px; }
h3 { font-size: 15px; margin: 0 0 6px; }
a { color: var(--info); }
a:focus-visible, input:focus-visible, select:focus-visible, [tabindex]:focus-visible { outline: 3px solid #0969da; outline-offset: 2px; }
table { border-collapse: collapse; width: 100%; margin: 4px 0 12px; }
th, td { border-bottom: 1px solid var(--line); padding: 4px 8px; text-align: left; vertical-align: top; }
th { background: var(--panel); font-weight: 600; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
code, pre { font: 12px/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
pre { background: var(--panel); border: 1px solid var(--line); padding: 8px; overflow: auto; max-height: 240px; white-space: pre-wrap; word-break: break-word; margin: 4px 0; }
form#filters { display: flex; flex-wrap: wrap; gap: 12px; align-items: end; margin-bottom: 8px; }
form#filters label { display: flex; flex-direction: column; font-size: 12px; color: var(--muted); gap: 2px; }
input, select { font: inherit; padding: 4px 6px; border: 1px solid #8c959f; border-radius: 4px; background: #fff; color: var(--ink); }
output { color: var(--muted); padding-bottom: 6px; }
.badge { display: inline-block; padding: 0 6px; border-radius: 10px; border: 1px solid currentColor; font-size: 12px; white-space: nowrap; }
.s-completed, .s-converged, .s-pass, .e-proven, .e-regression-guard { color: var(--ok); }
.s-failed, .s-fail, .s-blocked, .e-unproven { color: var(--bad); }
.s-executing, .s-running, .s-queued, .s-planned, .s-review, .e-no-change, .e-manual { color: var(--warn); }
.s-paused, .s-pending, .s-registered, .s-planning, .s-skipped, .e-not-measured, .e-not-recorded, .s-unknown { color: var(--muted); }
.muted { color: var(--muted); }
.s-claimed { color: var(--warn); }
ul.files { margin: 0; padding-left: 18px; }
.added { color: var(--ok); font-variant-numeric: tabular-nums; }
.removed { color: var(--bad); font-variant-numeric: tabular-nums; }
.check-file { background: #fff8c5; }
strong.check-file { font-weight: 600; font-size: 12px; padding: 0 4px; border-radius: 4px; }
.waits { margin: 0; padding-left: 18px; }
section#queue, section#totals { content-visibility: auto; contain-intrinsic-size: auto 600px; }
/* An open issue covers the lists, out of their flow: opening one lays out the issue alone, closing it lays out nothing. */
#detail > p:first-child { margin-top: 0; }
#detail { position: fixed; inset: 0; margin: 0; overflow: auto; z-index: 1; padding: 16px 24px 32px; background: #fff; }
#detail h2 { font-size: 19px; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: 2px 12px; margin: 8px 0 12px; }
dl.facts dt { color: var(--muted); }
dl.facts dd { margin: 0; }
.graph-box { overflow: auto; border: 1px solid var(--line); border-radius: 6px; background: var(--panel); margin: 8px 0 16px; }
svg.graph .edge { fill: none; stroke: #57606a; stroke-width: 1.5; }
svg.graph marker path { fill: #57606a; }
svg.graph rect { fill: #fff; stroke: #8c959f; stroke-width: 1.5; }
svg.graph text { font: 12px system-ui, sans-serif; fill: var(--ink); }
svg.graph text.id { font-weight: 600; }
svg.graph .st-converged rect { stroke: var(--ok); fill: #dafbe1; }
svg.graph .st-failed rect, svg.graph .st-blocked rect { stroke: var(--bad); fill: #ffebe9; }
svg.graph .st-running rect { stroke: var(--warn); fill: #fff8c5; }
svg.graph .st-skipped rect { stroke-dasharray: 4 3; }
svg.graph a:focus rect { stroke-width: 3; stroke: #0969da; }
article.task { border-top: 1px solid var(--line); padding: 12px 0; }
ol.timeline { padding-left: 20px; }
ol.timeline li { margin: 2px 0; }
.grid2 { display: grid; align-items: start; grid-template-columns: repeat(auto-fit, minmax(320px, 1fr)); gap: 16px; }
`
