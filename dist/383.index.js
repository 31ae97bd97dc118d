export const id = 383;
export const ids = [383];
export const modules = {

/***/ 4383:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  boardArtifactOrWarning: () => (/* binding */ boardArtifactOrWarning)
});

// UNUSED EXPORTS: writeBoardArtifact

// EXTERNAL MODULE: external "node:path"
var external_node_path_ = __webpack_require__(6760);
// EXTERNAL MODULE: ./src/board/format.ts
var format = __webpack_require__(6593);
// EXTERNAL MODULE: external "node:fs/promises"
var promises_ = __webpack_require__(1455);
// EXTERNAL MODULE: external "node:os"
var external_node_os_ = __webpack_require__(8161);
// EXTERNAL MODULE: ./src/board/data.ts + 2 modules
var data = __webpack_require__(320);
// EXTERNAL MODULE: ./src/board/graph.ts + 1 modules
var graph = __webpack_require__(852);
// EXTERNAL MODULE: ./src/board/issue-pages.ts
var issue_pages = __webpack_require__(6730);
// EXTERNAL MODULE: ./src/board/page.ts + 2 modules
var board_page = __webpack_require__(4033);
// EXTERNAL MODULE: ./src/board/pages-worker.ts
var pages_worker = __webpack_require__(4903);
// EXTERNAL MODULE: ./src/model/state-layout.ts
var state_layout = __webpack_require__(4375);
// EXTERNAL MODULE: ./src/board/input.ts
var input = __webpack_require__(7372);
;// CONCATENATED MODULE: ./src/board/read-state.ts
/** Reads everything the board shows from one commit of the state branch (the I/O edge of src/board/). */


/** Files asked for at once: one git process locally, one GraphQL query (of as many file fields) from GitHub. */
const FILES_PER_READ = 400;
const MAX_ATTEMPTS = 5;
/** The part of an events.md the timeline reads: its first events (a longer log is cut, not read whole). */
const MAX_EVENTS_CHARS = 1024 * 1024;
/** Everything the board shows, each issue's files parsed. */
async function readBoardInput(store) {
    const texts = await readBoardTexts(store);
    return { ...texts, issues: texts.issues.map((issue) => parseIssueTexts(issue)) };
}
/**
 * Issue directories come from `state.json`'s issues: every issue Converge records is there. Their files are read in
 * batches; when the branch moved while they were read, everything is read again at the new head, so the board is
 * always one commit's state. The issues' files are left as text, to be parsed an issue at a time (`parseIssueTexts`).
 */
async function readBoardTexts(store) {
    for (let attempt = 1;; attempt++) {
        const first = await store.snapshot([state_layout/* statePaths */.mt.runState]);
        const run = (0,input/* parseStateFile */.ne)(state_layout/* statePaths */.mt.runState, await first.read(state_layout/* statePaths */.mt.runState), input/* FILE_SCHEMAS */.QZ.run);
        const numbers = Object.values(run.value?.issues ?? {}).map((summary) => summary.number).sort((a, b) => a - b);
        const paths = numbers.flatMap((n) => [state_layout/* statePaths */.mt.issue(n), state_layout/* statePaths */.mt.plan(n), state_layout/* statePaths */.mt.execution(n), state_layout/* statePaths */.mt.events(n)]);
        const batches = [];
        for (let i = 0; i < paths.length; i += FILES_PER_READ)
            batches.push(await store.snapshot(paths.slice(i, i + FILES_PER_READ)));
        if (batches.every((batch) => batch.head === first.head) || attempt >= MAX_ATTEMPTS) {
            const batchOf = new Map(paths.map((path, i) => [path, batches[Math.floor(i / FILES_PER_READ)]]));
            const read = (path) => (batchOf.get(path) ?? first).read(path);
            return { branch: store.branch, head: first.head, run: run.value, issues: await readIssues(read, numbers), problems: run.problem ? [run.problem] : [] };
        }
    }
}
async function readIssues(read, numbers) {
    const issues = [];
    for (const n of numbers) {
        issues.push({
            number: n, issue: await read(state_layout/* statePaths */.mt.issue(n)), plan: await read(state_layout/* statePaths */.mt.plan(n)), execution: await read(state_layout/* statePaths */.mt.execution(n)),
            events: (await read(state_layout/* statePaths */.mt.events(n)))?.slice(0, MAX_EVENTS_CHARS),
        });
    }
    return issues;
}

;// CONCATENATED MODULE: ./src/board/make.ts
/**
 * Makes the board from a state store and writes it as a folder: index.html (the lists), issues/<n>.js (each issue's
 * page, loaded when opened, with its command outputs), board.json (the data, without the outputs), and layouts.json
 * (the task graphs' layouts by shape, read again by the next board made into the same folder so it lays out nothing
 * new).
 */









/**
 * Boards of less state than this are made on one thread: a second thread costs 1–3 s of CPU (its code compiled
 * again, a collector of its own), more than it saves on a board of short outputs (docs/board.md, "third pass").
 */
const WORKER_MIN_BYTES = 64 * 1024 * 1024;
/**
 * Each issue's files are parsed, built into its data and its page, and its outputs let go before the next issue's
 * are parsed (issue-pages.ts). A board of much state is made on two threads when there are two cores: the issues
 * after the half-way point of its state's bytes by a worker (pages-worker.ts), those before it here meanwhile.
 * `worker` chooses two threads (true) or one (false) instead.
 */
async function makeBoard(store, now, layout = new graph/* GraphLayout */.z(), worker) {
    const input = await readBoardTexts(store);
    const bytes = input.issues.map((t) => (t.issue?.length ?? 0) + (t.plan?.length ?? 0) + (t.execution?.length ?? 0) + (t.events?.length ?? 0));
    const twoThreads = worker ?? (bytes.reduce((sum, b) => sum + b, 0) >= WORKER_MIN_BYTES && (0,external_node_os_.availableParallelism)() > 1);
    const split = twoThreads ? halfWay(bytes) : input.issues.length;
    const second = split < input.issues.length ? (0,pages_worker.startPagesWorker)({ run: input.run, issues: input.issues.slice(split), layouts: layout.exportLayouts(true) }) : undefined;
    try {
        const first = new issue_pages/* IssuePagesMaker */.s(input.run, input.issues.slice(0, split));
        second?.start(first.budgetLeft());
        const made = first.make(layout);
        const theirs = await second?.result;
        if (theirs)
            layout.adoptLayouts(theirs.layouts, theirs.made);
        const issues = [...made.issues, ...(theirs?.pages.issues ?? [])];
        return boardOf((0,data/* boardDataOf */.Ae)(input, issues, now), new Map([...made.pages, ...(theirs?.pages.pages ?? [])]), layout);
    }
    finally {
        await second?.stop();
    }
}
/**
 * Where issues of these bytes of state (the work of making their pages) divide into two parts of about the same
 * bytes: issues planned and run come first in a repository's numbering as often as not, so half the issues is not
 * half the work.
 */
function halfWay(bytes) {
    const half = bytes.reduce((sum, b) => sum + b, 0) / 2;
    let sum = 0;
    const at = bytes.findIndex((b) => (sum += b) >= half);
    return at < 0 ? bytes.length : at + 1;
}
/** The page and its JSON from the data (the task graphs laid out here). */
async function renderBoard(data, layout = new GraphLayout()) {
    const pages = new Map();
    return boardOf({ ...data, issues: data.issues.map((issue) => issueWithPage(issue, pages, layout)) }, pages, layout);
}
/** Makes the issue's page into `pages`; returns the issue without its outputs. */
function issueWithPage(issue, pages, layout) {
    pages.set(issue.number, issuePage(issue, layout));
    return withoutOutputs(issue);
}
function boardOf(data, issues, layout) {
    return { data, html: (0,board_page/* boardPage */.eY)(data), issues, json: `${JSON.stringify(data)}\n`, layouts: `${JSON.stringify(layout.exportLayouts())}\n` };
}
const BOARD_FILES = { page: 'index.html', data: 'board.json', layouts: 'layouts.json' };
/** A layout engine holding the layouts an earlier board wrote to `dir` (none when there is none or it is unreadable). */
async function layoutsOf(dir) {
    const layout = new GraphLayout();
    try {
        layout.importLayouts(JSON.parse(await readFile(join(dir, BOARD_FILES.layouts), 'utf8')));
    }
    catch {
        // No earlier board here: every graph is laid out.
    }
    return layout;
}
/**
 * Writes the files, each replaced whole (a server reading the folder never sees half a page): the issues' pages
 * first, the page that links them last; then removes the pages of issues the board no longer has.
 */
async function writeBoard(dir, board) {
    await (0,promises_.mkdir)((0,external_node_path_.join)(dir, 'issues'), { recursive: true });
    const page = (0,external_node_path_.join)(dir, BOARD_FILES.page);
    const data = (0,external_node_path_.join)(dir, BOARD_FILES.data);
    const replace = async (path, content) => {
        await (0,promises_.writeFile)(`${path}.tmp`, content);
        await (0,promises_.rename)(`${path}.tmp`, path);
    };
    for (const [n, script] of board.issues)
        await replace((0,external_node_path_.join)(dir, (0,board_page/* issueScriptPath */.wj)(n)), script);
    for (const [path, content] of [[(0,external_node_path_.join)(dir, BOARD_FILES.layouts), board.layouts], [data, board.json], [page, board.html]])
        await replace(path, content);
    const current = new Set([...board.issues.keys()].map((n) => `${n}.js`));
    for (const name of await (0,promises_.readdir)((0,external_node_path_.join)(dir, 'issues')))
        if (!current.has(name))
            await (0,promises_.rm)((0,external_node_path_.join)(dir, 'issues', name), { force: true });
    return { page, data };
}

;// CONCATENATED MODULE: ./src/action/board.ts
/**
 * The action's `board: artifact`: the board of the state branch written to a folder of the runner's temporary
 * directory, the folder a Pages artifact is made of (`actions/upload-pages-artifact` with `path:` the output
 * `board-path`), and named in the job summary.
 */



/**
 * The board after a command, never its failure: a board that cannot be made (a state file it cannot read, a full
 * disk) is a warning of the run, and the command's own outcome stands.
 */
async function boardArtifactOrWarning(store, tempDir, now) {
    try {
        return await writeBoardArtifact(store, tempDir, now);
    }
    catch (error) {
        return { warning: `Converge: the board could not be made (${error.message}); the command's own outcome stands` };
    }
}
async function writeBoardArtifact(store, tempDir, now) {
    const board = await makeBoard(store, now);
    const path = (0,external_node_path_.join)(tempDir, 'converge-board');
    await writeBoard(path, board);
    const head = board.data.head ? ` at \`${board.data.head.slice(0, 12)}\`` : '';
    const bytes = Buffer.byteLength(board.html);
    return {
        path,
        summary: `**Board**: the board of \`${store.branch}\`${head} (${(0,format/* plural */.LS)(board.data.issues.length, 'issue')}, ${Math.ceil(bytes / 1024)} KB) is in \`${path}\` (output \`board-path\`): publish it with \`actions/upload-pages-artifact\` and \`actions/deploy-pages\`.`,
    };
}


/***/ })

};
