export const id = 903;
export const ids = [903];
export const modules = {

/***/ 320:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  Ae: () => (/* binding */ boardDataOf),
  q5: () => (/* binding */ boardIssue),
  IC: () => (/* binding */ tasksShown),
  HM: () => (/* binding */ withoutOutputs)
});

// UNUSED EXPORTS: MAX_BOARD_TASKS, MAX_TASKS_SHOWN, buildBoardData, cleanOutput, repositoryUrl

// EXTERNAL MODULE: ./src/agents/usage.ts
var agents_usage = __webpack_require__(861);
// EXTERNAL MODULE: ./src/model/index.ts + 1 modules
var model = __webpack_require__(4223);
// EXTERNAL MODULE: ./src/model/state-layout.ts
var state_layout = __webpack_require__(4375);
// EXTERNAL MODULE: ./src/plan/analyse.ts + 1 modules
var analyse = __webpack_require__(1376);
// EXTERNAL MODULE: ./src/plan/hash.ts
var plan_hash = __webpack_require__(2239);
// EXTERNAL MODULE: ./src/queue/blockers.ts
var blockers = __webpack_require__(3448);
// EXTERNAL MODULE: ./src/report/ansi.ts
var ansi = __webpack_require__(1659);
// EXTERNAL MODULE: ./src/report/evidence-words.ts
var evidence_words = __webpack_require__(2109);
// EXTERNAL MODULE: ./src/report/format.ts
var format = __webpack_require__(2011);
// EXTERNAL MODULE: ./src/model/secrets.ts
var secrets = __webpack_require__(5780);
// EXTERNAL MODULE: ./src/report/task-view.ts + 1 modules
var task_view = __webpack_require__(5312);
// EXTERNAL MODULE: ./src/board/input.ts
var input = __webpack_require__(7372);
;// CONCATENATED MODULE: ./src/board/totals.ts

function boardTotals(issues) {
    const days = new Map();
    const agents = new Map();
    const evidence = noEvidence();
    for (const issue of issues) {
        for (const [kind, count] of Object.entries(issue.evidence))
            evidence[kind] += count;
        for (const task of issue.tasks) {
            if (!task.executed_at)
                continue;
            add(days, task.executed_at.slice(0, 10), task);
            add(agents, task.agent, task);
        }
    }
    const all = [...days.values()];
    return {
        issues: issues.length,
        tasks: all.reduce((sum, row) => sum + row.tasks, 0),
        cost_usd: sumOf(all.map((row) => row.cost_usd)),
        tokens: sumOf(all.map((row) => row.tokens)),
        by_day: [...days.values()].sort((a, b) => a.key.localeCompare(b.key)),
        by_agent: [...agents.values()].sort((a, b) => b.tasks - a.tasks || a.key.localeCompare(b.key)),
        evidence,
    };
}
function add(rows, key, task) {
    const row = rows.get(key) ?? { key, tasks: 0, cost_usd: null, tokens: null };
    row.tasks++;
    row.cost_usd = sumOf([row.cost_usd, task.cost_usd]);
    row.tokens = sumOf([row.tokens, task.tokens]);
    rows.set(key, row);
}
/** The sum of what was reported; null when nothing was (not reported is not 0). */
function sumOf(values) {
    const reported = values.filter((v) => v !== null);
    return reported.length ? reported.reduce((a, b) => a + b, 0) : null;
}
function noEvidence() {
    return Object.fromEntries(input/* EVIDENCE_COLUMNS */.UN.map((kind) => [kind, 0]));
}

;// CONCATENATED MODULE: ./src/board/timeline.ts
/** An issue's timeline, from its `events.md` (headings `## <time> — <who>: <what>`, then details). Pure. */
const HEADING = /^## (\S+) — ([^:\n]+): (.*)$/;
function readTimeline(events) {
    if (!events)
        return [];
    const entries = [];
    let current;
    for (const line of events.split('\n')) {
        const heading = HEADING.exec(line);
        if (heading) {
            current = { at: heading[1], subject: heading[2].trim(), what: heading[3].trim(), detail: '' };
            entries.push(current);
        }
        else if (current && !current.detail && line.trim() && !line.startsWith('---')) {
            current.detail = line.replace(/\*\*/g, '').trim().slice(0, 300);
        }
    }
    return entries;
}

;// CONCATENATED MODULE: ./src/board/data.ts
/**
 * The board's data (also written beside the page as board.json): pure, from what the state branch holds.
 * Command output is masked for credential shapes: a board may be published on GitHub Pages.
 */














/** Plans larger than this are shown as a summary (task counts by state), without their tasks or graph. */
const MAX_TASKS_SHOWN = 1_000;
/** Tasks the whole board shows in detail: the issues after the budget is spent are shown as summaries. */
const MAX_BOARD_TASKS = 60_000;
function buildBoardData(input, generatedAt) {
    const { shown } = tasksShown(input.issues.map((files) => files.plan?.tasks.length ?? 0));
    return boardDataOf(input, input.issues.map((files, i) => boardIssue(files, input.run, shown[i])), generatedAt);
}
/**
 * Which issues' tasks the board shows, from their plans' sizes in the order of the state's issues (the board's task
 * budget is spent in that order), and the budget left for the issues after them.
 */
function tasksShown(sizes, budget = MAX_BOARD_TASKS) {
    const shown = sizes.map((size) => {
        const fits = size <= MAX_TASKS_SHOWN && size <= budget;
        if (fits)
            budget -= size;
        return fits;
    });
    return { shown, left: budget };
}
/** The board's data from its issues' (the queue, the totals). */
function boardDataOf(input, issues, generatedAt) {
    const run = input.run;
    const byNumber = new Map(issues.map((issue) => [issue.number, issue]));
    const queue = (run?.queue ?? []).map((item) => {
        const number = Number(/\d+$/.exec(item.issue_id)?.[0]);
        const issue = byNumber.get(number);
        const conflict = item.depends_on?.length ? [`file conflict: ${item.reason ?? `after ${item.depends_on.join(', ')}`}`] : [];
        return {
            item_id: item.item_id, issue: number, title: issue?.title ?? item.issue_id, status: item.status,
            group: item.group ?? null, position: item.position ?? null, waits: [...(issue?.waits ?? []), ...conflict],
        };
    });
    return { branch: input.branch, head: input.head, generated_at: generatedAt, queue, issues, totals: boardTotals(issues), problems: input.problems };
}
/**
 * The issue as `board.json` holds it: every command output (`output_tail`) null. The outputs are most of a board's
 * bytes and are shown by the issue's own page (`issues/<n>.js`), made from the whole issue.
 */
function withoutOutputs(issue) {
    const runs = (list) => list.map((r) => ({ ...r, output_tail: null }));
    return {
        ...issue,
        tasks: issue.tasks.map((t) => ({
            ...t,
            checks: t.checks.map((c) => ({ ...c, output_tail: null })),
            evidence: t.evidence && {
                ...t.evidence, before: runs(t.evidence.before), after: runs(t.evidence.after),
                differential: t.evidence.differential && { forward: runs(t.evidence.differential.forward), reverse: runs(t.evidence.differential.reverse) },
            },
        })),
    };
}
/** An issue's data; `shown`: its tasks are shown (see {@link tasksShown}). */
function boardIssue(files, run, shown) {
    const { issue, plan, execution } = files;
    const summary = run?.issues[`ISS-${files.number}`];
    const status = issue?.status ?? summary?.status ?? 'unknown';
    const hash = plan ? (0,plan_hash/* planHash */.SH)(plan) : null;
    const view = plan && shown ? (0,task_view/* buildView */.kK)({ issue: { number: files.number, title: issue?.title ?? '' }, status: status === 'unknown' ? 'registered' : status, solution: plan, analysis: (0,analyse/* analyseSolution */.Bw)(plan), ...(execution ? { execution } : {}), commandPrefix: '/converge', links: {} }, (0,task_view/* approvalOf */.xf)(plan, hash)) : undefined;
    const clean = outputCleaner();
    const tasks = (view?.tasks ?? []).map((t) => boardTask(t.task.id, t, execution?.tasks[t.task.id], clean));
    const evidence = noEvidence();
    if (shown) {
        for (const task of tasks)
            if (task.evidence)
                evidence[task.evidence.kind]++;
    }
    else {
        for (const result of Object.values(execution?.tasks ?? {}))
            if (result.status !== 'skipped')
                evidence[result.evidence?.kind ?? 'not-recorded']++;
    }
    const usage = (0,agents_usage/* runUsage */.l_)((hash && (0,model/* executionOfPlan */.jK)(execution, hash)) || execution);
    const repo = repositoryUrl(issue?.url ?? null);
    const branch = (0,state_layout/* workBranchName */.hl)(files.number);
    return {
        number: files.number,
        title: issue?.title ?? summary?.title ?? `ISS-${files.number}`,
        status,
        labels: issue?.labels ?? [],
        error: issue?.error ? cleanOutput(issue.error) : null,
        solution_id: plan?.id ?? issue?.solution_id ?? null,
        gate: view?.analysis?.gate ?? null,
        quality_score: view?.analysis?.quality?.quality_score ?? null,
        approval: plan?.approval ? { by: plan.approval.approved_by, hash: plan.approval.plan_hash, at: plan.approval.approved_at, current: plan.approval.plan_hash === hash } : null,
        evidence,
        attempts: tasks.reduce((sum, t) => sum + t.attempts, 0),
        duration_ms: execution ? ((0,format/* elapsedMs */.d5)(execution.started_at, execution.executed_at) ?? sumDurations(execution)) : null,
        cost_usd: usage?.cost_usd ?? null,
        tokens: usage ? (0,agents_usage/* totalTokens */.RP)(usage) : null,
        links: {
            issue: repo ? `${repo}/issues/${files.number}` : null,
            pull_request: repo ? `${repo}/pulls?q=${encodeURIComponent(`is:pr head:${branch}`)}` : null,
            branch,
            branch_url: repo ? `${repo}/tree/${branch}` : null,
        },
        waits: waitsOf(files, status, run, plan ? plan.approval?.plan_hash === hash : false),
        parent: issue?.parent ?? null,
        children: issue?.children ?? [],
        tasks,
        tasks_hidden: shown ? 0 : plan?.tasks.length ?? 0,
        timeline: readTimeline(files.events),
        problems: files.problems,
    };
}
function boardTask(id, view, result, clean) {
    const usage = (0,agents_usage/* taskUsage */.NZ)(result);
    return {
        id,
        title: view.task.title,
        state: view.state,
        wave: view.wave ?? null,
        depends_on: view.task.depends_on,
        badge: view.state === 'unproven' && result?.evidence ? evidence_words/* KIND_LABEL */.CF[result.evidence.kind] : view.state,
        files: filesOf(view.task.files, result),
        checks: view.checks.map((c) => ({
            kind: c.kind, text: c.text, verdict: c.verdict, how: c.verified_by,
            exit_code: c.exit_code ?? null, duration_ms: c.duration_ms ?? null, output_tail: c.output_tail === undefined ? null : clean(c.output_tail),
        })),
        evidence: evidenceOf(id, result, clean),
        commit: result?.commit_hash ?? null,
        attempts: result?.attempts ?? 0,
        duration_ms: result?.duration_ms ?? null,
        executed_at: result?.executed_at ?? null,
        error: result?.error ? cleanOutput(result.error) : null,
        agent: agentOf(result),
        cost_usd: usage?.cost_usd ?? null,
        tokens: usage ? (0,agents_usage/* totalTokens */.RP)(usage) : null,
    };
}
/** Command output as the page shows it: colour and cursor codes removed, credential shapes masked. */
function cleanOutput(output) {
    return (0,secrets/* maskTokenShapes */._2)((0,ansi/* stripAnsi */.a)(output));
}
/**
 * `cleanOutput` for one issue, remembering what it cleaned lately: a task's runs after the change are its checks'
 * runs (the same output twice), and a baseline can be the task before's. Found by comparing (cheap for texts that
 * differ early or in length), not by a Map: hashing each 6 KB output costs about as much as cleaning it. Only the
 * last few are kept, so an issue of a thousand tasks is not compared against all it has shown.
 */
function outputCleaner() {
    const seen = [];
    return (output) => {
        for (const [raw, text] of seen)
            if (raw === output)
                return text;
        const text = cleanOutput(output);
        if (seen.unshift([output, text]) > RECENT_OUTPUTS)
            seen.pop();
        return text;
    };
}
/** How many cleaned outputs an issue's cleaner compares a new one with: a few tasks' worth of checks. */
const RECENT_OUTPUTS = 32;
function evidenceOf(id, result, clean) {
    if (!result || result.status === 'skipped')
        return null;
    const none = { before: [], after: [], check_files: [], differential: null };
    if (!result.evidence)
        return { kind: 'not-recorded', sentence: `${id}: no evidence recorded (a record of an earlier version)`, ...none };
    const e = result.evidence;
    const cleanRuns = (runs) => (runs ?? []).map((r) => ({ ...r, output_tail: clean(r.output_tail) }));
    const differential = e.forward?.length || e.reverse?.length ? { forward: cleanRuns(e.forward), reverse: cleanRuns(e.reverse) } : null;
    return { kind: e.kind, sentence: (0,evidence_words/* evidenceSentence */.fT)(id, e), before: cleanRuns(e.before), after: cleanRuns(e.after), check_files: (e.check_files ?? []).map((f) => f.path), differential };
}
/** The plan's files, then those the task changed unasked; each with its lines when recorded, check files marked. */
function filesOf(planned, result) {
    const changed = new Set(result?.files_modified ?? []);
    const stats = new Map((result?.file_stats ?? []).map((f) => [f.path, f]));
    const checks = new Set((result?.evidence?.check_files ?? []).map((f) => f.path));
    const actions = new Map(planned.map((f) => [f.path, f.action]));
    return [...new Set([...actions.keys(), ...changed, ...stats.keys(), ...checks])].map((path) => ({
        path, action: actions.get(path) ?? null, changed: changed.has(path) || stats.has(path),
        added: stats.get(path)?.added ?? null, removed: stats.get(path)?.removed ?? null, binary: stats.get(path)?.binary ?? false, check: checks.has(path),
    }));
}
const AGENT_NAMES = { 'claude-json': 'Claude Code', 'codex-jsonl': 'Codex', 'gemini-json': 'Gemini CLI', text: 'agent (text output)' };
function agentOf(result) {
    const runs = result?.executor_runs ?? [];
    if (!runs.length)
        return 'none';
    const format = runs.findLast((run) => run.agent)?.agent?.format;
    return format ? AGENT_NAMES[format] : 'executor (no report)';
}
function sumDurations(execution) {
    return Object.values(execution.tasks).reduce((sum, t) => sum + t.duration_ms, 0);
}
/** `https://github.com/o/r` from an issue's URL; null for anything else (the URL is data, not trusted to be a link). */
function repositoryUrl(issueUrl) {
    const match = issueUrl && /^(https:\/\/[A-Za-z0-9.-]+(?::\d+)?\/[\w.-]+\/[\w.-]+)\/issues\/\d+$/.exec(issueUrl);
    return match ? match[1] : null;
}
/** What keeps the issue from running: open blockers, an epic's unfinished children, a missing approval. */
function waitsOf(files, status, run, approved) {
    if (status === 'completed' || status === 'failed')
        return [];
    const waits = (0,blockers/* openBlockers */.A)(files.issue?.blocked_by, run?.issues ?? {}).map((b) => `blocked by #${b.number} (${b.status})`);
    const children = (files.issue?.children ?? []).filter((n) => run?.issues[`ISS-${n}`]?.status !== 'completed');
    if (children.length)
        waits.push(`epic: ${children.map((n) => `#${n}`).join(', ')} not completed`);
    if (files.plan && !approved && (status === 'planned' || status === 'queued'))
        waits.push('approval of the current plan');
    if (status === 'paused')
        waits.push('resume (paused)');
    return waits;
}


/***/ }),

/***/ 7065:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   ZD: () => (/* binding */ escapeHtml)
/* harmony export */ });
/* unused harmony exports BIDI_CONTROLS, showBidi */
/** Text from issues, plans and command output, made safe to put in the page's HTML. */
const ENTITIES = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
/**
 * Bidirectional controls (embeddings, overrides, isolates, marks): a file name holding U+202E would draw the text
 * after it reversed. The page shows each as its code point instead, in the text and in attribute values alike.
 */
const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/g;
/** `‹U+202E›`: a bidi control as a reader can see it. */
const showBidi = (text) => text.replace(BIDI_CONTROLS, (c) => `‹U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}›`);
/** One character class (not an alternation of two): the scan of text that needs nothing is the common case. */
const NEEDS_ESCAPE = new RegExp(`[&<>"'${BIDI_CONTROLS.source.slice(1, -1)}]`);
/** For element content and quoted attribute values alike. */
function escapeHtml(text) {
    // Most text needs nothing: a test is cheaper than two replaces, and a board escapes hundreds of thousands of texts.
    if (!NEEDS_ESCAPE.test(text))
        return text;
    return showBidi(text).replace(/[&<>"']/g, (c) => ENTITIES[c]);
}


/***/ }),

/***/ 6593:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   BC: () => (/* binding */ shortHash),
/* harmony export */   CI: () => (/* binding */ usage),
/* harmony export */   LS: () => (/* binding */ plural),
/* harmony export */   Qq: () => (/* binding */ text),
/* harmony export */   U9: () => (/* binding */ count),
/* harmony export */   nf: () => (/* binding */ link),
/* harmony export */   ot: () => (/* binding */ labelBadge),
/* harmony export */   p0: () => (/* binding */ duration),
/* harmony export */   qS: () => (/* binding */ badge),
/* harmony export */   ti: () => (/* binding */ inlineCode),
/* harmony export */   y: () => (/* binding */ cost)
/* harmony export */ });
/* harmony import */ var _report_format_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(2011);
/* harmony import */ var _report_markdown_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(4285);
/* harmony import */ var _escape_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(7065);
/** How the board writes numbers, states and links; every text it is given is escaped here. */



const text = _escape_js__WEBPACK_IMPORTED_MODULE_0__/* .escapeHtml */ .ZD;
function cost(usd) {
    if (usd === null)
        return '<span class="muted">–</span>';
    return `$${usd < 1 ? usd.toFixed(4) : usd.toFixed(2)}`;
}
function count(n) {
    return n === null ? '<span class="muted">–</span>' : n.toLocaleString('en-US');
}
/** Cost and tokens together; "not reported" when the agent reported neither (or no agent ran). */
function usage(usd, tokens) {
    if (usd === null && tokens === null)
        return '<span class="muted">not reported</span>';
    return `${cost(usd)} · ${count(tokens)} tokens`;
}
function duration(ms) {
    return ms === null ? '<span class="muted">–</span>' : (0,_report_format_js__WEBPACK_IMPORTED_MODULE_1__/* .formatDuration */ .a3)(ms);
}
/** A state word as a coloured badge; `prefix` names its colour family (s: status, e: evidence). */
function badge(word, prefix = 's') {
    return `<span class="badge ${prefix}-${(0,_escape_js__WEBPACK_IMPORTED_MODULE_0__/* .escapeHtml */ .ZD)(word)}">${(0,_escape_js__WEBPACK_IMPORTED_MODULE_0__/* .escapeHtml */ .ZD)(word)}</span>`;
}
/** A word as a badge of a given colour class (`e-no-change`), for labels that are not themselves a class name. */
function labelBadge(label, colour) {
    return `<span class="badge ${(0,_escape_js__WEBPACK_IMPORTED_MODULE_0__/* .escapeHtml */ .ZD)(colour)}">${(0,_escape_js__WEBPACK_IMPORTED_MODULE_0__/* .escapeHtml */ .ZD)(label)}</span>`;
}
/** Text with its `inline code` as code: every part escaped, so nothing of the text becomes markup but <code>. */
function inlineCode(source) {
    return source.split(/`([^`\n]+)`/).map((part, i) => (i % 2 ? `<code>${(0,_escape_js__WEBPACK_IMPORTED_MODULE_0__/* .escapeHtml */ .ZD)(part)}</code>` : (0,_escape_js__WEBPACK_IMPORTED_MODULE_0__/* .escapeHtml */ .ZD)(part))).join('');
}
/** A link when `href` is one (http(s) only: URLs come from state files), else the label as text. */
function link(label, href) {
    if (!href || !/^https?:\/\//.test(href))
        return (0,_escape_js__WEBPACK_IMPORTED_MODULE_0__/* .escapeHtml */ .ZD)(label);
    return `<a href="${(0,_escape_js__WEBPACK_IMPORTED_MODULE_0__/* .escapeHtml */ .ZD)(href)}" rel="noopener noreferrer">${(0,_escape_js__WEBPACK_IMPORTED_MODULE_0__/* .escapeHtml */ .ZD)(label)}</a>`;
}
function shortHash(hash) {
    return (0,_escape_js__WEBPACK_IMPORTED_MODULE_0__/* .escapeHtml */ .ZD)(hash.replace(/^sha256:/, '').slice(0, 12));
}
/** `1 issue`, `1,204 issues`: the count as the board writes numbers. */
function plural(n, word) {
    return `${n.toLocaleString('en-US')} ${(0,_report_markdown_js__WEBPACK_IMPORTED_MODULE_2__/* .pluralWord */ .XK)(n, word)}`;
}


/***/ }),

/***/ 852:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  z: () => (/* binding */ GraphLayout)
});

// EXTERNAL MODULE: external "node:crypto"
var external_node_crypto_ = __webpack_require__(7598);
// EXTERNAL MODULE: ./src/board/escape.ts
var board_escape = __webpack_require__(7065);
;// CONCATENATED MODULE: ./src/board/layered-layout.ts
/**
 * A small layered (Sugiyama-style) layout of a task graph, drawn left to right: a task is in a layer after every
 * task it depends on. Pure and deterministic: the same ids and edges in the same order give the same layout.
 *
 * 1. Layers: each node one layer after the furthest of its predecessors (longest path); a task nothing depends on
 *    first is moved right, next to its first successor. A cycle (a plan that is not a DAG) is broken by laying out
 *    against the first node still waiting, so its edge is drawn backwards rather than the layout failing.
 * 2. An edge over several layers is a chain of points, one in each layer it crosses, each with a slot of its own, so
 *    no edge runs through a node.
 * 3. Order within each layer: barycenter sweeps down and up, keeping the order with the fewest crossings.
 * 4. Vertical places: each node as close as its order allows to the mean of its neighbours' places (the closest
 *    places keeping the order and the gaps: pool-adjacent-violators), a few passes down and up.
 */
const MAX_SWEEPS = 24;
/** Sweeps in a row that found no fewer crossings before the ordering stops. */
const PATIENCE = 4;
const PLACEMENT_PASSES = 4;
function layeredLayout(ids, edges, sizes) {
    const index = new Map(ids.map((id, i) => [id, i]));
    const drawn = edges.filter(([from, to]) => from !== to && index.has(from) && index.has(to));
    const pairs = drawn.map(([from, to]) => [index.get(from), index.get(to)]);
    const layer = assignLayers(ids.length, pairs);
    const graph = chainEdges(ids.length, layer, pairs);
    const layers = orderLayers(graph);
    const centre = placeVertically(graph, layers, sizes);
    const vertices = layers.flat();
    const top = least(vertices.map((v) => centre[v] - graph.height(v, sizes) / 2));
    const y = (v) => centre[v] - top + sizes.padding;
    const x = (v) => sizes.padding + graph.layer[v] * (sizes.nodeWidth + sizes.layerGap);
    const nodes = new Map(ids.map((id, v) => [id, { x: x(v), y: y(v) - sizes.nodeHeight / 2 }]));
    const laidEdges = drawn.map(([from, to], e) => {
        const chain = graph.chains[e];
        const points = [{ x: x(chain[0]) + sizes.nodeWidth, y: y(chain[0]) }];
        for (const d of chain.slice(1, -1))
            points.push({ x: x(d), y: y(d) }, { x: x(d) + sizes.nodeWidth, y: y(d) });
        points.push({ x: x(chain.at(-1)), y: y(chain.at(-1)) });
        // A chain runs left to right; an edge drawn against a cycle runs back to its target.
        return { from, to, points: graph.reversed[e] ? points.reverse() : points };
    });
    const layerCount = layers.length;
    return {
        width: 2 * sizes.padding + layerCount * sizes.nodeWidth + Math.max(0, layerCount - 1) * sizes.layerGap,
        height: 2 * sizes.padding + (vertices.length ? greatest(vertices.map((v) => y(v) + graph.height(v, sizes) / 2)) - sizes.padding : 0),
        nodes,
        edges: laidEdges,
    };
}
/** The least and greatest of `values` (0 of none), without spreading a long array into arguments. */
const least = (values) => (values.length ? values.reduce((a, b) => Math.min(a, b)) : 0);
const greatest = (values) => (values.length ? values.reduce((a, b) => Math.max(a, b)) : 0);
/** Each node's layer: after all its predecessors (edges against a cycle set aside), sources next to their successors. */
function assignLayers(count, pairs) {
    const order = topologicalOrder(count, pairs);
    const rank = new Array(count);
    order.forEach((v, i) => { rank[v] = i; });
    const preds = Array.from({ length: count }, () => []);
    const succs = Array.from({ length: count }, () => []);
    for (const [a, b] of pairs) {
        const [from, to] = rank[a] < rank[b] ? [a, b] : [b, a];
        preds[to].push(from);
        succs[from].push(to);
    }
    const layer = new Array(count).fill(0);
    for (const v of order)
        for (const p of preds[v])
            layer[v] = Math.max(layer[v], layer[p] + 1);
    for (const v of order)
        if (!preds[v].length && succs[v].length)
            layer[v] = Math.min(...succs[v].map((s) => layer[s])) - 1;
    return layer;
}
/** Kahn's order, nodes taken in index order; when only a cycle is left, its first node by index goes next. */
function topologicalOrder(count, pairs) {
    const waiting = new Array(count).fill(0);
    const succs = Array.from({ length: count }, () => []);
    for (const [a, b] of pairs) {
        waiting[b]++;
        succs[a].push(b);
    }
    const done = new Array(count).fill(false);
    const order = [];
    const ready = [...waiting.keys()].filter((v) => waiting[v] === 0);
    let next = 0;
    let firstUndone = 0;
    while (order.length < count) {
        if (next === ready.length) {
            while (done[firstUndone])
                firstUndone++;
            ready.push(firstUndone);
        }
        const v = ready[next++];
        if (done[v])
            continue;
        done[v] = true;
        order.push(v);
        for (const s of succs[v])
            if (!done[s] && --waiting[s] === 0)
                ready.push(s);
    }
    return order;
}
function chainEdges(count, nodeLayer, pairs) {
    const layer = [...nodeLayer];
    const before = Array.from({ length: count }, () => []);
    const after = Array.from({ length: count }, () => []);
    const reversed = pairs.map(([a, b]) => layer[a] > layer[b]);
    const chains = pairs.map(([a, b], e) => {
        const [from, to] = reversed[e] ? [b, a] : [a, b];
        const chain = [from];
        for (let l = layer[from] + 1; l < layer[to]; l++) {
            layer.push(l);
            before.push([]);
            after.push([]);
            chain.push(layer.length - 1);
        }
        chain.push(to);
        for (let i = 1; i < chain.length; i++) {
            after[chain[i - 1]].push(chain[i]);
            before[chain[i]].push(chain[i - 1]);
        }
        return chain;
    });
    const isNode = (v) => v < count;
    return { layer, before, after, chains, reversed, isNode, height: (v, sizes) => (isNode(v) ? sizes.nodeHeight : 0) };
}
/** The vertices of each layer, top to bottom, after barycenter sweeps: the order with the fewest crossings found. */
function orderLayers(graph) {
    const layerCount = graph.layer.length ? greatest(graph.layer) + 1 : 0;
    const layers = Array.from({ length: layerCount }, () => []);
    graph.layer.forEach((l, v) => layers[l].push(v));
    const position = new Array(graph.layer.length);
    const number = () => layers.forEach((l) => l.forEach((v, i) => { position[v] = i; }));
    number();
    let best = layers.map((l) => [...l]);
    let fewest = crossings(layers, graph.after, position);
    const weight = new Float64Array(graph.layer.length);
    for (let sweep = 0, stale = 0; sweep < MAX_SWEEPS && fewest > 0 && stale < PATIENCE; sweep++) {
        const down = sweep % 2 === 0;
        const neighbours = down ? graph.before : graph.after;
        for (let k = 1; k < layerCount; k++) {
            const layer = layers[down ? k : layerCount - 1 - k];
            for (const v of layer) {
                const next = neighbours[v];
                let sum = 0;
                for (const u of next)
                    sum += position[u];
                weight[v] = next.length ? sum / next.length : position[v];
            }
            // Equal barycenters keep their order.
            layer.sort((a, b) => weight[a] - weight[b] || position[a] - position[b]);
            layer.forEach((v, i) => { position[v] = i; });
        }
        const count = crossings(layers, graph.after, position);
        if (count < fewest) {
            fewest = count;
            best = layers.map((l) => [...l]);
            stale = 0;
        }
        else
            stale++;
    }
    return best;
}
/** Edge crossings between each pair of neighbouring layers: inversions of the edges' lower ends, by a Fenwick tree. */
function crossings(layers, after, position) {
    let total = 0;
    const tree = new Int32Array(layers.reduce((most, l) => Math.max(most, l.length), 0) + 1);
    const ends = [];
    for (let l = 0; l + 1 < layers.length; l++) {
        ends.length = 0;
        for (const v of layers[l]) {
            const first = ends.length;
            for (const w of after[v])
                ends.push(position[w]);
            // Edges of one upper vertex in the order of their lower ends: they never cross each other.
            for (let i = first + 1; i < ends.length; i++)
                for (let j = i; j > first && ends[j - 1] > ends[j]; j--)
                    [ends[j - 1], ends[j]] = [ends[j], ends[j - 1]];
        }
        const size = layers[l + 1].length;
        tree.fill(0, 0, size + 1);
        ends.forEach((end, seen) => {
            let notAfter = 0;
            for (let i = end + 1; i > 0; i -= i & -i)
                notAfter += tree[i];
            total += seen - notAfter;
            for (let i = end + 1; i <= size; i += i & -i)
                tree[i]++;
        });
    }
    return total;
}
/** Each vertex's vertical centre: near its neighbours, in its layer's order, with the gaps between. */
function placeVertically(graph, layers, sizes) {
    const centre = new Array(graph.layer.length).fill(0);
    const gap = (a, b) => (graph.height(a, sizes) + graph.height(b, sizes)) / 2 + (graph.isNode(a) && graph.isNode(b) ? sizes.nodeGap : sizes.nodeGap / 2);
    for (const l of layers)
        l.forEach((v, i) => { centre[v] = i ? centre[l[i - 1]] + gap(l[i - 1], v) : 0; });
    const mean = (vs, own) => (vs.length ? vs.reduce((s, u) => s + centre[u], 0) / vs.length : own);
    for (let pass = 0; pass < 2 * PLACEMENT_PASSES + 1; pass++) {
        const last = pass === 2 * PLACEMENT_PASSES;
        const down = pass % 2 === 0;
        const sequence = down ? [...layers.keys()] : [...layers.keys()].reverse();
        for (const l of sequence) {
            const layer = layers[l];
            const wanted = layer.map((v) => (last ? mean([...graph.before[v], ...graph.after[v]], centre[v]) : mean((down ? graph.before : graph.after)[v], centre[v])));
            const placed = closestInOrder(wanted, layer.slice(1).map((v, i) => gap(layer[i], v)));
            layer.forEach((v, i) => { centre[v] = placed[i]; });
        }
    }
    return centre;
}
/**
 * The places closest (least squares) to `wanted` with each at least `gaps[i]` below the one before: with the gaps
 * taken out this is an increasing fit, solved by pooling neighbours that are out of order into their mean.
 */
function closestInOrder(wanted, gaps) {
    const offset = [0];
    for (const g of gaps)
        offset.push(offset.at(-1) + g);
    const blocks = [];
    for (let i = 0; i < wanted.length; i++) {
        blocks.push({ sum: wanted[i] - offset[i], count: 1 });
        while (blocks.length > 1 && blocks.at(-2).sum / blocks.at(-2).count > blocks.at(-1).sum / blocks.at(-1).count) {
            const last = blocks.pop();
            blocks.at(-1).sum += last.sum;
            blocks.at(-1).count += last.count;
        }
    }
    const placed = [];
    for (const b of blocks)
        for (let k = 0; k < b.count; k++)
            placed.push(b.sum / b.count + offset[placed.length]);
    return placed;
}

;// CONCATENATED MODULE: ./src/board/graph.ts
/**
 * An issue's task graph as SVG, laid out when the page is made by the board's own layered layout
 * (layered-layout.ts): the page itself runs no layout code. Graphs of the same shape (same tasks and dependencies)
 * share one layout, and the layouts made are kept (`exportLayouts`/`importLayouts`) so the next board of the same
 * plans lays out nothing.
 */



const NODE_WIDTH = 190;
const NODE_HEIGHT = 46;
/** Characters of a task title that fit in a node; the full title is in the node's tooltip and the task list. */
const TITLE_FIT = 24;
/** Part of a layout's key: layouts an earlier layout engine kept (elkjs') are made again. */
const LAYOUT_VERSION = 'layered-1';
class GraphLayout {
    layouts = new Map();
    /** The shapes of the graphs drawn: only their layouts are kept for the next board (the file would grow forever). */
    used = new Set();
    /** Layouts made in this process (the others came from the cache). */
    made = 0;
    /** The SVG of `tasks` (their ids, titles, states and dependencies) for issue `number`. */
    svg(number, tasks) {
        return renderSvg(number, tasks, this.layout(tasks));
    }
    layout(tasks) {
        const known = new Set(tasks.map((t) => t.id));
        const edges = tasks.flatMap((t) => t.depends_on.filter((d) => known.has(d)).map((d) => [d, t.id]));
        const key = (0,external_node_crypto_.createHash)('sha256').update(`${LAYOUT_VERSION}|${tasks.map((t) => t.id).join(',')}|${edges.map((e) => e.join('>')).join(',')}`).digest('base64url').slice(0, 22);
        this.used.add(key);
        let layout = this.layouts.get(key);
        if (!layout) {
            layout = this.run(tasks.map((t) => t.id), edges);
            this.layouts.set(key, layout);
        }
        return layout;
    }
    /**
     * The layouts of the graphs drawn, by shape, to keep for the next board (those of plans gone are dropped); `all`:
     * every layout known, for another thread drawing graphs of the same board.
     */
    exportLayouts(all = false) {
        const saved = {};
        for (const key of all ? this.layouts.keys() : this.used) {
            const l = this.layouts.get(key);
            saved[key] = {
                width: l.width, height: l.height,
                nodes: [...l.nodes].map(([id, at]) => [id, at.x, at.y]),
                edges: l.edges.map((e) => ({ from: e.from, to: e.to, points: e.points.map((p) => [p.x, p.y]) })),
            };
        }
        return saved;
    }
    /** Layouts kept by an earlier board: used for graphs of the same shape. Anything malformed is ignored. */
    importLayouts(saved) {
        if (!saved || typeof saved !== 'object')
            return;
        for (const [key, value] of Object.entries(saved)) {
            try {
                const layout = {
                    width: Number(value.width), height: Number(value.height),
                    nodes: new Map(value.nodes.map(([id, x, y]) => [String(id), { x: Number(x), y: Number(y) }])),
                    edges: value.edges.map((e) => ({ from: String(e.from), to: String(e.to), points: e.points.map(([x, y]) => ({ x: Number(x), y: Number(y) })) })),
                };
                this.layouts.set(key, layout);
            }
            catch {
                // A malformed entry is laid out again.
            }
        }
    }
    /** The layouts another thread drew for this board (`made` of them new): kept with this board's. */
    adoptLayouts(drawn, made) {
        this.importLayouts(drawn);
        for (const key of Object.keys(drawn))
            this.used.add(key);
        this.made += made;
    }
    run(ids, edges) {
        this.made++;
        return layeredLayout(ids, edges, { nodeWidth: NODE_WIDTH, nodeHeight: NODE_HEIGHT, layerGap: 44, nodeGap: 16, padding: 8 });
    }
}
const round = (n) => Math.round(n * 10) / 10;
function renderSvg(number, tasks, layout) {
    const marker = `arrow-${number}`;
    const edges = layout.edges.map((e) => {
        const d = e.points.map((p, i) => `${i ? 'L' : 'M'}${round(p.x)} ${round(p.y)}`).join(' ');
        return `<path class="edge" d="${d}" marker-end="url(#${marker})"/>`;
    });
    const nodes = tasks.map((t) => {
        const at = layout.nodes.get(t.id) ?? { x: 0, y: 0 };
        const title = t.title.length > TITLE_FIT ? `${t.title.slice(0, TITLE_FIT - 1)}…` : t.title;
        return [
            `<a href="#issue-${number}-${(0,board_escape/* escapeHtml */.ZD)(t.id)}" class="node st-${t.state}" transform="translate(${round(at.x)} ${round(at.y)})">`,
            `<title>${(0,board_escape/* escapeHtml */.ZD)(`${t.id}: ${t.title} (${t.badge})`)}</title>`,
            `<rect width="${NODE_WIDTH}" height="${NODE_HEIGHT}" rx="6"/>`,
            `<text x="10" y="19" class="id">${(0,board_escape/* escapeHtml */.ZD)(t.id)} · ${(0,board_escape/* escapeHtml */.ZD)(t.badge)}</text>`,
            `<text x="10" y="36">${(0,board_escape/* escapeHtml */.ZD)(title)}</text>`,
            '</a>',
        ].join('');
    });
    return [
        `<svg class="graph" role="group" aria-label="Task graph of ISS-${number}" viewBox="0 0 ${round(layout.width)} ${round(layout.height)}" width="${round(layout.width)}" height="${round(layout.height)}">`,
        `<defs><marker id="${marker}" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0 0L10 5L0 10z"/></marker></defs>`,
        ...edges,
        ...nodes,
        '</svg>',
    ].join('');
}


/***/ }),

/***/ 7372:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   NA: () => (/* binding */ parseIssueTexts),
/* harmony export */   QZ: () => (/* binding */ FILE_SCHEMAS),
/* harmony export */   UN: () => (/* binding */ EVIDENCE_COLUMNS),
/* harmony export */   ne: () => (/* binding */ parseStateFile),
/* harmony export */   uo: () => (/* binding */ parsePlanText)
/* harmony export */ });
/* unused harmony exports BoardEvidenceSchema, BoardTaskResultSchema, BoardExecutionSchema, MAX_STATE_FILE_CHARS */
/* harmony import */ var zod__WEBPACK_IMPORTED_MODULE_4__ = __webpack_require__(2311);
/* harmony import */ var _model_evidence_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(6860);
/* harmony import */ var _model_index_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(4223);
/* harmony import */ var _model_state_layout_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(4375);
/* harmony import */ var _state_state_files_js__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(8278);
/**
 * What the board reads from the state branch (SPEC §4), read tolerantly: a file that does not match its schema is
 * reported on the board as a problem of its issue, never a reason to show nothing. Task results may carry
 * `evidence` (SPEC §7), which records written before it existed lack: those tasks count as "not recorded".
 */





/** Evidence kinds, and `not-recorded` for a finished task whose result has no evidence (records of older versions). */
const EVIDENCE_COLUMNS = [..._model_evidence_js__WEBPACK_IMPORTED_MODULE_0__/* .EVIDENCE_KINDS */ .At, 'not-recorded'];
/**
 * Evidence as recorded, with what newer records add read when present (each unreadable one counts as absent): the
 * check files the task wrote or changed itself (what its proof rests on), and the differential runs.
 */
const BoardEvidenceSchema = _model_evidence_js__WEBPACK_IMPORTED_MODULE_0__/* .TaskEvidenceSchema */ .Qs.extend({
    check_files: _model_evidence_js__WEBPACK_IMPORTED_MODULE_0__/* .TaskEvidenceSchema */ .Qs.shape.check_files.catch(undefined),
    forward: _model_evidence_js__WEBPACK_IMPORTED_MODULE_0__/* .TaskEvidenceSchema */ .Qs.shape.forward.catch(undefined),
    reverse: _model_evidence_js__WEBPACK_IMPORTED_MODULE_0__/* .TaskEvidenceSchema */ .Qs.shape.reverse.catch(undefined),
});
/**
 * A task result as execution.json holds it, with its evidence and its files' lines when recorded (an unreadable one
 * counts as absent: the board then names the files without their lines).
 */
const BoardTaskResultSchema = _model_index_js__WEBPACK_IMPORTED_MODULE_1__/* .TaskResultSchema */ .oU.extend({
    evidence: BoardEvidenceSchema.optional().catch(undefined),
    file_stats: zod__WEBPACK_IMPORTED_MODULE_4__/* .array */ .YOg(_model_index_js__WEBPACK_IMPORTED_MODULE_1__/* .FileStatSchema */ .Or).optional().catch(undefined),
});
const BoardExecutionSchema = _model_index_js__WEBPACK_IMPORTED_MODULE_1__/* .ExecutionRecordSchema */ .ZB.extend({
    tasks: zod__WEBPACK_IMPORTED_MODULE_4__/* .record */ .g1P(zod__WEBPACK_IMPORTED_MODULE_4__/* .string */ .YjP(), BoardTaskResultSchema),
    executed_tasks: zod__WEBPACK_IMPORTED_MODULE_4__/* .record */ .g1P(zod__WEBPACK_IMPORTED_MODULE_4__/* .string */ .YjP(), BoardTaskResultSchema).optional(),
});
const FILE_SCHEMAS = {
    run: _model_index_js__WEBPACK_IMPORTED_MODULE_1__/* .RunStateSchema */ .sT,
    issue: _model_index_js__WEBPACK_IMPORTED_MODULE_1__/* .IssueStateSchema */ .cG,
    plan: _model_index_js__WEBPACK_IMPORTED_MODULE_1__/* .SolutionSchema */ .Ze,
    execution: BoardExecutionSchema,
};
/** The largest state file the board reads (in characters): a larger one is a problem of its issue, not a stall. */
const MAX_STATE_FILE_CHARS = 16 * 1024 * 1024;
/**
 * One issue's files parsed: done an issue at a time as the board is made, so only one issue's execution record (its
 * outputs, most of the state's bytes) is held parsed at once.
 */
function parseIssueTexts(texts, plan = parsePlanText(texts)) {
    const n = texts.number;
    const issue = parseStateFile(_model_state_layout_js__WEBPACK_IMPORTED_MODULE_2__/* .statePaths */ .mt.issue(n), texts.issue, FILE_SCHEMAS.issue);
    const execution = parseStateFile(_model_state_layout_js__WEBPACK_IMPORTED_MODULE_2__/* .statePaths */ .mt.execution(n), texts.execution, FILE_SCHEMAS.execution);
    return {
        number: n, issue: issue.value, plan: plan.value, execution: execution.value, events: texts.events,
        problems: [issue.problem, plan.problem, execution.problem].filter((p) => p !== undefined),
    };
}
/** An issue's plan parsed alone: its size decides whether the board shows its tasks, before the rest is read. */
function parsePlanText(texts) {
    return parseStateFile(_model_state_layout_js__WEBPACK_IMPORTED_MODULE_2__/* .statePaths */ .mt.plan(texts.number), texts.plan, FILE_SCHEMAS.plan);
}
/** Parses one state file's text; `problem` says why it could not be used. */
function parseStateFile(path, text, schema) {
    if (text === undefined)
        return {};
    if (text.length > MAX_STATE_FILE_CHARS)
        return { problem: `${path}: ${(text.length / 1024 / 1024).toFixed(1)} MB, more than the board reads (${MAX_STATE_FILE_CHARS / 1024 / 1024} MB)` };
    const parsed = (0,_state_state_files_js__WEBPACK_IMPORTED_MODULE_3__/* .parseStateJson */ .j2)(text, schema);
    if (parsed.ok)
        return { value: parsed.value };
    return { problem: parsed.wrong === 'json' ? `${path}: not JSON (${parsed.detail})` : `${path}: ${parsed.detail}` };
}


/***/ }),

/***/ 6730:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   s: () => (/* binding */ IssuePagesMaker)
/* harmony export */ });
/* unused harmony export issuePage */
/* harmony import */ var _data_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(320);
/* harmony import */ var _input_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(7372);
/* harmony import */ var _page_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(4033);



/** The issue's page (`issues/<n>.js`), its task graph laid out by `layout`. */
function issuePage(issue, layout) {
    return (0,_page_js__WEBPACK_IMPORTED_MODULE_2__/* .issueScript */ .dj)(issue, issue.tasks.length ? layout.svg(issue.number, issue.tasks) : '');
}
class IssuePagesMaker {
    run;
    texts;
    plans;
    constructor(run, texts) {
        this.run = run;
        this.texts = texts;
        this.plans = texts.map(_input_js__WEBPACK_IMPORTED_MODULE_1__/* .parsePlanText */ .uo);
    }
    /** The task budget these issues leave to the issues after them, when they start with `budget`. */
    budgetLeft(budget) {
        return (0,_data_js__WEBPACK_IMPORTED_MODULE_0__/* .tasksShown */ .IC)(this.sizes(), budget).left;
    }
    /** Their data and pages, the task budget they start with `budget` (the board's whole budget by default). */
    make(layout, budget) {
        const { shown } = (0,_data_js__WEBPACK_IMPORTED_MODULE_0__/* .tasksShown */ .IC)(this.sizes(), budget);
        const issues = [];
        const pages = [];
        this.texts.forEach((texts, i) => {
            const issue = (0,_data_js__WEBPACK_IMPORTED_MODULE_0__/* .boardIssue */ .q5)((0,_input_js__WEBPACK_IMPORTED_MODULE_1__/* .parseIssueTexts */ .NA)(texts, this.plans[i]), this.run, shown[i]);
            pages.push([issue.number, issuePage(issue, layout)]);
            issues.push((0,_data_js__WEBPACK_IMPORTED_MODULE_0__/* .withoutOutputs */ .HM)(issue));
        });
        return { issues, pages };
    }
    sizes() {
        return this.plans.map((plan) => plan.value?.tasks.length ?? 0);
    }
}


/***/ }),

/***/ 4033:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  eY: () => (/* binding */ boardPage),
  dj: () => (/* binding */ issueScript),
  wj: () => (/* binding */ issueScriptPath)
});

// UNUSED EXPORTS: CONTENT_SECURITY_POLICY

// EXTERNAL MODULE: external "node:crypto"
var external_node_crypto_ = __webpack_require__(7598);
// EXTERNAL MODULE: ./src/model/index.ts + 1 modules
var model = __webpack_require__(4223);
;// CONCATENATED MODULE: ./src/board/client.ts
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
const BOARD_ISSUE_SCRIPT = `(() => {
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
`;
/** The lists' script, at the end of the page: the filters, and the keys. */
const BOARD_SCRIPT = `(() => {
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
`;
const BOARD_STYLE = `
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
`;

// EXTERNAL MODULE: ./src/board/format.ts
var format = __webpack_require__(6593);
// EXTERNAL MODULE: ./src/board/input.ts
var input = __webpack_require__(7372);
// EXTERNAL MODULE: ./src/report/evidence-words.ts
var evidence_words = __webpack_require__(2109);
;// CONCATENATED MODULE: ./src/board/issue-page.ts


function issuePage(issue, svg) {
    const n = issue.number;
    return [
        `<p><a href="#issues">← All issues</a> <span class="muted">(Esc)</span></p>`,
        `<h2 tabindex="-1">ISS-${n}: ${(0,format/* text */.Qq)(issue.title)}</h2>`,
        '<dl class="facts">',
        `<dt>Status</dt><dd>${(0,format/* badge */.qS)(issue.status)}${issue.error ? ` ${(0,format/* text */.Qq)(issue.error)}` : ''}</dd>`,
        `<dt>Plan</dt><dd>${issue.solution_id ? (0,format/* text */.Qq)(issue.solution_id) : '<span class="muted">none</span>'}${issue.gate ? ` · gate ${(0,format/* badge */.qS)(issue.gate)}${issue.quality_score === null ? '' : ` ${issue.quality_score}/100`}` : ''}</dd>`,
        `<dt>Approval</dt><dd>${approval(issue)}</dd>`,
        `<dt>Waits for</dt><dd>${issue.waits.length ? (0,format/* text */.Qq)(issue.waits.join('; ')) : '<span class="muted">nothing</span>'}</dd>`,
        ...(issue.parent ? [`<dt>Epic</dt><dd><a href="#issue-${issue.parent}">#${issue.parent}</a></dd>`] : []),
        ...(issue.children.length ? [`<dt>Children</dt><dd>${issue.children.map((c) => `<a href="#issue-${c}">#${c}</a>`).join(', ')}</dd>`] : []),
        `<dt>Attempts</dt><dd>${issue.attempts}</dd>`,
        `<dt>Duration</dt><dd>${(0,format/* duration */.p0)(issue.duration_ms)}</dd>`,
        `<dt>Agent cost</dt><dd>${(0,format/* usage */.CI)(issue.cost_usd, issue.tokens)}</dd>`,
        `<dt>Links</dt><dd>${links(issue)}</dd>`,
        ...(issue.labels.length ? [`<dt>Labels</dt><dd>${issue.labels.map((l) => `<code>${(0,format/* text */.Qq)(l)}</code>`).join(' ')}</dd>`] : []),
        '</dl>',
        ...issue.problems.map((p) => `<p class="s-failed">Could not read ${(0,format/* text */.Qq)(p)}</p>`),
        issue.tasks_hidden
            ? `<p class="muted">Its plan has ${(0,format/* plural */.LS)(issue.tasks_hidden, 'task')}, more than the board shows in detail: the issue is shown as a summary (its evidence counts are in the list).</p>`
            : issue.tasks.length ? `<h3>Task graph</h3><div class="graph-box">${svg}</div>` : '<p class="muted">No plan yet.</p>',
        ...issue.tasks.map((t) => taskArticle(n, t)),
        '<h3>Timeline</h3>',
        issue.timeline.length
            ? `<ol class="timeline">${issue.timeline.map((e) => `<li><time>${(0,format/* text */.Qq)(e.at)}</time> <strong>${(0,format/* text */.Qq)(e.subject)}</strong>: ${(0,format/* text */.Qq)(e.what)}${e.detail ? ` <span class="muted">${(0,format/* text */.Qq)(e.detail)}</span>` : ''}</li>`).join('')}</ol>`
            : '<p class="muted">No events recorded.</p>',
    ].join('\n');
}
function approval(issue) {
    const a = issue.approval;
    if (!a)
        return '<span class="muted">not approved</span>';
    return `@${(0,format/* text */.Qq)(a.by)} · <code>${(0,format/* shortHash */.BC)(a.hash)}</code>${a.current ? '' : ' <span class="s-failed">(an earlier version of the plan)</span>'}`;
}
function links(issue) {
    const l = issue.links;
    const parts = [l.issue ? (0,format/* link */.nf)(`#${issue.number}`, l.issue) : `#${issue.number}`, ...(l.pull_request ? [(0,format/* link */.nf)('pull request', l.pull_request)] : [])];
    parts.push(l.branch_url ? (0,format/* link */.nf)(l.branch, l.branch_url) : `<code>${(0,format/* text */.Qq)(l.branch)}</code>`);
    return parts.join(' · ');
}
function taskArticle(n, t) {
    const facts = [
        `<dt>Wave</dt><dd>${t.wave ?? '–'}${t.depends_on.length ? ` · after ${(0,format/* text */.Qq)(t.depends_on.join(', '))}` : ''}</dd>`,
        `<dt>Files</dt><dd>${filesList(t)}</dd>`,
        `<dt>Attempts</dt><dd>${t.attempts} · ${(0,format/* duration */.p0)(t.duration_ms)}</dd>`,
        `<dt>Agent</dt><dd>${(0,format/* text */.Qq)(t.agent)} · ${(0,format/* usage */.CI)(t.cost_usd, t.tokens)}</dd>`,
        `<dt>Commit</dt><dd>${t.commit ? `<code>${(0,format/* text */.Qq)(t.commit.slice(0, 12))}</code>` : '<span class="muted">none</span>'}</dd>`,
        ...(t.error ? [`<dt>Error</dt><dd class="s-failed">${(0,format/* text */.Qq)(t.error)}</dd>`] : []),
    ];
    return [
        `<article class="task" id="task-${n}-${(0,format/* text */.Qq)(t.id)}" tabindex="-1" aria-labelledby="task-${n}-${(0,format/* text */.Qq)(t.id)}-h">`,
        `<h3 id="task-${n}-${(0,format/* text */.Qq)(t.id)}-h">${(0,format/* text */.Qq)(t.id)}: ${(0,format/* text */.Qq)(t.title)} ${taskBadge(t)}</h3>`,
        `<dl class="facts">${facts.join('')}</dl>`,
        checksTable(t),
        evidenceBlock(t),
        '</article>',
    ].join('\n');
}
/** The task's badge: its state, or what its evidence is when it completed unproven ("changed nothing"). */
function taskBadge(t) {
    return t.badge === t.state || !t.evidence ? (0,format/* badge */.qS)(t.state) : (0,format/* labelBadge */.ot)(t.badge, `e-${t.evidence.kind}`);
}
function filesList(t) {
    if (!t.files.length)
        return '<span class="muted">none named</span>';
    const items = t.files.map((f) => {
        const lines = f.binary ? ' <span class="muted">binary</span>' : f.added !== null || f.removed !== null ? ` <span class="added">+${f.added ?? 0}</span> <span class="removed">−${f.removed ?? 0}</span>` : '';
        const what = [f.action ? (0,format/* text */.Qq)(f.action) : 'not in the plan', ...(f.changed && !lines ? ['changed'] : [])].join(', ');
        const check = f.check ? ' <strong class="check-file">check file it wrote or changed itself</strong>' : '';
        return `<li${f.check ? ' class="check-file"' : ''}><code>${(0,format/* text */.Qq)(f.path)}</code>${lines} <span class="muted">(${what})</span>${check}</li>`;
    });
    return `<ul class="files">${items.join('')}</ul>`;
}
const HOW = { command: 'command', agent: "the agent's report", manual: 'a person' };
/** A check's verdict: one only the agent's report gives is its claim, never a pass. */
function verdict(c) {
    if (c.how === 'agent' && c.verdict === 'pass')
        return (0,format/* labelBadge */.ot)('claimed by the agent', 's-claimed');
    return (0,format/* badge */.qS)(c.verdict);
}
function checksTable(t) {
    if (!t.checks.length)
        return '<p class="muted">No criteria or commands.</p>';
    const rows = t.checks.map((c) => [
        `<tr><td>${c.kind === 'command' ? `<code>${(0,format/* text */.Qq)(c.text)}</code>` : (0,format/* inlineCode */.ti)(c.text)}</td><td>${HOW[c.how]}</td><td>${verdict(c)}</td>`,
        `<td class="num">${c.exit_code ?? '–'}</td><td class="num">${(0,format/* duration */.p0)(c.duration_ms)}</td></tr>`,
        c.output_tail ? `<tr><td colspan="5"><details><summary>output of <code>${(0,format/* text */.Qq)(c.text.slice(0, 60))}</code></summary><pre>${(0,format/* text */.Qq)(c.output_tail)}</pre></details></td></tr>` : '',
    ].join(''));
    return `<table><caption class="muted">Criteria and how each is checked</caption><thead><tr><th>Check</th><th>How</th><th>Verdict</th><th class="num">Exit</th><th class="num">Time</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}
function runsTable(label, list) {
    if (!list.length)
        return '';
    return `<h4>${label}</h4><table><thead><tr><th>Command</th><th class="num">Exit</th><th class="num">Time</th></tr></thead><tbody>${list.map((r) => [
        `<tr><td><code>${(0,format/* text */.Qq)(r.command)}</code></td><td class="num">${r.exit_code ?? 'killed'}</td><td class="num">${(0,format/* duration */.p0)(r.duration_ms ?? null)}</td></tr>`,
        r.output_tail ? `<tr><td colspan="3"><details><summary>output</summary><pre>${(0,format/* text */.Qq)(r.output_tail)}</pre></details></td></tr>` : '',
    ].join('')).join('')}</tbody></table>`;
}
function evidenceBlock(t) {
    const e = t.evidence;
    if (!e)
        return '<p class="muted">Evidence: not run yet.</p>';
    const label = e.kind === 'not-recorded' ? 'not recorded' : evidence_words/* KIND_LABEL */.CF[e.kind];
    return [
        `<div class="evidence"><p>Evidence: ${(0,format/* labelBadge */.ot)(label, `e-${e.kind}`)} ${(0,format/* inlineCode */.ti)(e.sentence)}</p>`,
        e.check_files.length ? `<p class="check-file">Its proof rests on check files it wrote or changed itself: ${e.check_files.map((f) => `<code>${(0,format/* text */.Qq)(f)}</code>`).join(', ')}</p>` : '',
        runsTable('Before the change', e.before),
        runsTable('After the change', e.after),
        ...(e.differential ? [runsTable('Differential run (forward)', e.differential.forward), runsTable('Differential run (reverse)', e.differential.reverse)] : []),
        '</div>',
    ].join('');
}

;// CONCATENATED MODULE: ./src/board/page.ts
/**
 * The board's page: the queue, the issue list and the totals. Each issue's own page (its tasks, outputs and graph)
 * is a script file of its own beside it (`issues/<n>.js`, see {@link issueScript}), loaded when the issue is opened,
 * so a board of thousands of issues opens as fast as its list. Its Content-Security-Policy allows its own inline
 * script and styles (by hash) and scripts of its own folder ('self', the only way a file:// page can load one): no
 * request leaves it. Every text from the state is escaped.
 */






const hashOf = (source) => `'sha256-${(0,external_node_crypto_.createHash)('sha256').update(source).digest('base64')}'`;
/** The policy, also sent as a header by `converge board --serve`. */
const CONTENT_SECURITY_POLICY = [
    "default-src 'none'",
    `script-src ${hashOf(BOARD_ISSUE_SCRIPT)} ${hashOf(BOARD_SCRIPT)} 'self'`,
    `style-src ${hashOf(BOARD_STYLE)}`,
    "img-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
].join('; ');
/** Where an issue's page is, relative to the board's page. */
const issueScriptPath = (n) => `issues/${n}.js`;
/**
 * An issue's page as the script file the board loads when it is opened: a call of the board's `boardIssue` with
 * the page's HTML (made and escaped here, as the list is) as a JSON string. A script file is parsed as script
 * alone (no HTML parser reads it), so a JSON string is all the quoting it needs.
 */
function issueScript(issue, svg) {
    return `boardIssue(${issue.number}, ${JSON.stringify(issuePage(issue, svg))})\n`;
}
function boardPage(data) {
    const labels = [...new Set(data.issues.flatMap((i) => i.labels))].sort();
    const option = (value) => `<option value="${(0,format/* text */.Qq)(value)}">${(0,format/* text */.Qq)(value)}</option>`;
    return [
        '<!doctype html>',
        '<html lang="en"><head><meta charset="utf-8">',
        `<meta http-equiv="Content-Security-Policy" content="${CONTENT_SECURITY_POLICY}">`,
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        `<title>Converge board · ${(0,format/* text */.Qq)(data.branch)}</title>`,
        `<style>${BOARD_STYLE}</style></head><body>`,
        '<header><h1>Converge board</h1>',
        `<p>${(0,format/* plural */.LS)(data.issues.length, 'issue')} · state branch <code>${(0,format/* text */.Qq)(data.branch)}</code>${data.head ? ` at <code>${(0,format/* text */.Qq)(data.head.slice(0, 12))}</code>` : ' (not created yet)'} · made ${(0,format/* text */.Qq)(data.generated_at)}</p></header>`,
        '<nav aria-label="Views"><a href="#queue">Queue</a><a href="#issues">Issues</a><a href="#totals">Totals</a></nav>',
        '<main>',
        ...data.problems.map((p) => `<p class="s-failed">Could not read ${(0,format/* text */.Qq)(p)}</p>`),
        `<section id="detail" hidden role="dialog" aria-modal="true" aria-label="Issue" data-issues="${data.issues.map((i) => i.number).join(' ')}"></section>`,
        `<script>${BOARD_ISSUE_SCRIPT}</script>`,
        queueSection(data),
        '<section id="issues" aria-labelledby="issues-h"><h2 id="issues-h">Issues</h2>',
        '<form id="filters" role="search" aria-label="Filter issues">',
        '<label>Search (/)<input id="f-search" type="search" autocomplete="off"></label>',
        `<label>Status<select id="f-status"><option value="">any</option>${[...model/* ISSUE_STATUSES */.Dq, 'unknown'].map(option).join('')}</select></label>`,
        `<label>Label<select id="f-label"><option value="">any</option>${labels.map(option).join('')}</select></label>`,
        `<label>Evidence<select id="f-evidence"><option value="">any</option>${input/* EVIDENCE_COLUMNS */.UN.map(option).join('')}</select></label>`,
        `<output id="shown" aria-live="polite">${data.issues.length} of ${data.issues.length} issues shown</output>`,
        '</form>',
        issueTable(data.issues),
        '</section>',
        totalsSection(data),
        '</main>',
        `<script>${BOARD_SCRIPT}</script>`,
        '</body></html>',
        '',
    ].join('\n');
}
function queueSection(data) {
    const head = '<section id="queue" aria-labelledby="queue-h"><h2 id="queue-h">Queue</h2>';
    if (!data.queue.length)
        return `${head}<p class="muted">The queue is empty (converge sync builds it).</p></section>`;
    const rows = data.queue.map((q) => [
        `<tr><td>${(0,format/* text */.Qq)(q.item_id)}</td><td><a href="#issue-${q.issue}">#${q.issue} ${(0,format/* text */.Qq)(q.title)}</a></td><td>${(0,format/* badge */.qS)(q.status)}</td>`,
        `<td>${q.group ? `${(0,format/* text */.Qq)(q.group)}${q.position ? ` · ${q.position}` : ''}` : '–'}</td>`,
        `<td>${q.waits.length ? `<ul class="waits">${q.waits.map((w) => `<li>${(0,format/* text */.Qq)(w)}</li>`).join('')}</ul>` : '<span class="muted">nothing: ready</span>'}</td></tr>`,
    ].join(''));
    return `${head}<table><thead><tr><th>Item</th><th>Issue</th><th>Status</th><th>Group</th><th>Waits for</th></tr></thead><tbody>${rows.join('\n')}</tbody></table></section>`;
}
function issueTable(issues) {
    const rows = issues.map((i) => {
        const kinds = input/* EVIDENCE_COLUMNS */.UN.filter((k) => i.evidence[k] > 0);
        const evidence = kinds.length ? kinds.map((k) => `<span class="badge e-${k}">${i.evidence[k]} ${k}</span>`).join(' ') : '<span class="muted">–</span>';
        const search = `#${i.number} ${i.title} ${i.labels.join(' ')}`.toLowerCase();
        return [
            `<tr data-status="${(0,format/* text */.Qq)(i.status)}" data-labels="${(0,format/* text */.Qq)(i.labels.join('\n'))}" data-evidence="${kinds.join(' ')}" data-search="${(0,format/* text */.Qq)(search)}">`,
            `<td class="num">${i.number}</td><td><a href="#issue-${i.number}">${(0,format/* text */.Qq)(i.title)}</a></td><td>${(0,format/* badge */.qS)(i.status)}</td>`,
            `<td>${i.gate ? (0,format/* badge */.qS)(i.gate) : '–'}</td><td>${approval(i)}</td><td>${evidence}</td>`,
            `<td class="num">${i.attempts}</td><td class="num">${(0,format/* duration */.p0)(i.duration_ms)}</td><td class="num">${(0,format/* cost */.y)(i.cost_usd)}</td><td class="num">${(0,format/* count */.U9)(i.tokens)}</td>`,
            `<td>${links(i)}</td></tr>`,
        ].join('');
    });
    return [
        '<table id="issue-table"><thead><tr><th class="num">#</th><th>Title</th><th>Status</th><th>Gate</th><th>Approval</th><th>Evidence</th>',
        '<th class="num">Attempts</th><th class="num">Duration</th><th class="num">Cost</th><th class="num">Tokens</th><th>Links</th></tr></thead>',
        `<tbody>${rows.join('\n')}</tbody></table>`,
    ].join('');
}
function totalsSection(data) {
    const t = data.totals;
    const table = (caption, first, rows) => rows.length
        ? `<table><caption>${caption}</caption><thead><tr><th>${first}</th><th class="num">Tasks</th><th class="num">Cost</th><th class="num">Tokens</th></tr></thead><tbody>${rows.map((r) => `<tr><td>${(0,format/* text */.Qq)(r.key)}</td><td class="num">${r.tasks}</td><td class="num">${(0,format/* cost */.y)(r.cost_usd)}</td><td class="num">${(0,format/* count */.U9)(r.tokens)}</td></tr>`).join('')}</tbody></table>`
        : `<p class="muted">${caption}: no task has run yet.</p>`;
    const evidence = input/* EVIDENCE_COLUMNS */.UN.map((k) => `<tr><td>${(0,format/* badge */.qS)(k, 'e')}</td><td class="num">${t.evidence[k]}</td></tr>`).join('');
    return [
        '<section id="totals" aria-labelledby="totals-h"><h2 id="totals-h">Totals</h2>',
        `<p>${(0,format/* plural */.LS)(t.tasks, 'task')} run across ${(0,format/* plural */.LS)(t.issues, 'issue')} · agent cost: ${(0,format/* usage */.CI)(t.cost_usd, t.tokens)}</p>`,
        '<div class="grid2">',
        table('Per day (UTC)', 'Day', t.by_day),
        table('Per agent', 'Agent', t.by_agent),
        `<table><caption>Evidence of finished tasks</caption><thead><tr><th>Kind</th><th class="num">Tasks</th></tr></thead><tbody>${evidence}</tbody></table>`,
        '</div></section>',
    ].join('\n');
}


/***/ }),

/***/ 4903:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

__webpack_require__.r(__webpack_exports__);
/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   startPagesWorker: () => (/* binding */ startPagesWorker)
/* harmony export */ });
/* harmony import */ var node_worker_threads__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(5919);
/* harmony import */ var node_worker_threads__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(node_worker_threads__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var _graph_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(852);
/* harmony import */ var _issue_pages_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(6730);
/**
 * The board's second thread: it makes the pages of the second half of a board's issues (issue-pages.ts) while the
 * main thread makes the first half's, so a large board is made on two cores. It is given the issues' files as text,
 * the run's state and the layouts known; it parses its issues' plans at once, waits for the task budget the first
 * half leaves, then answers with its issues' data (without outputs), their pages and the layouts it drew.
 */



/** Marks a worker thread as this one: a bundled entry hands such a thread to this module. */
const PAGES_WORKER = 'converge-board-pages';
/**
 * In development this module's own source is the thread's script (run through tsx); in a bundle, which has no file
 * of its own for this module, the bundle's entry is (it hands a worker thread here: src/index.ts, src/cli/main.ts).
 */
function workerScript() {
    return import.meta.url.endsWith('.ts') ? new URL(import.meta.url) : process.argv[1];
}
function startPagesWorker(job, script = workerScript()) {
    const workerData = { [PAGES_WORKER]: job };
    const worker = String(script).endsWith('.ts')
        // Source is loaded through tsx's loader, registered in the thread first (found from here: a command may run in
        // any folder; Node 20 does not apply an `--import`ed loader to a worker's own script).
        ? new node_worker_threads__WEBPACK_IMPORTED_MODULE_0__.Worker(`import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then((tsx) => { tsx.register(); return import(${JSON.stringify(String(script))}) })`, { eval: true, workerData })
        : new node_worker_threads__WEBPACK_IMPORTED_MODULE_0__.Worker(script, { workerData });
    const result = new Promise((resolve, reject) => {
        const failed = (why) => reject(new Error(`the board's second thread failed: ${why}`));
        worker.once('message', resolve);
        worker.once('error', (error) => failed(error.message));
        // After its answer this rejects nothing: a promise is settled once.
        worker.once('exit', (code) => failed(`it ended (exit code ${code}) without its issues' pages`));
    });
    // Made before the answer is awaited (the main thread makes its own half first): never an unhandled rejection.
    result.catch(() => undefined);
    return { start: (budget) => worker.postMessage(budget), result, stop: () => worker.terminate() };
}
/** In the thread: makes its issues' pages when told the budget, and answers. */
function makePagesInThisThread(job) {
    const maker = new _issue_pages_js__WEBPACK_IMPORTED_MODULE_2__/* .IssuePagesMaker */ .s(job.run, job.issues);
    const layout = new _graph_js__WEBPACK_IMPORTED_MODULE_1__/* .GraphLayout */ .z();
    layout.importLayouts(job.layouts);
    node_worker_threads__WEBPACK_IMPORTED_MODULE_0__.parentPort.once('message', (budget) => {
        const made = { pages: maker.make(layout, budget), layouts: layout.exportLayouts(), made: layout.made };
        node_worker_threads__WEBPACK_IMPORTED_MODULE_0__.parentPort.postMessage(made);
    });
}
const job = node_worker_threads__WEBPACK_IMPORTED_MODULE_0__.isMainThread ? undefined : node_worker_threads__WEBPACK_IMPORTED_MODULE_0__.workerData?.[PAGES_WORKER];
if (job)
    makePagesInThisThread(job);


/***/ })

};
