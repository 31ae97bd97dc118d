export const id = 78;
export const ids = [78];
export const modules = {

/***/ 1376:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  J6: () => (/* binding */ analysePlan),
  Bw: () => (/* binding */ analyseSolution)
});

// UNUSED EXPORTS: analysePlanText

// EXTERNAL MODULE: ./src/plan/dag.ts
var plan_dag = __webpack_require__(7411);
// EXTERNAL MODULE: ./src/plan/proof-findings.ts
var proof_findings = __webpack_require__(6440);
// EXTERNAL MODULE: ./src/model/verification.ts
var model_verification = __webpack_require__(8162);
;// CONCATENATED MODULE: ./src/plan/quality.ts

// `task-generation-execution-spec.md`, "Vague Pattern Detection": the seed's patterns, with the English
// ones as whole words so that "define" or "goodput" are not taken for "fine" and "good".
const VAGUE_PATTERNS = /正常|正确|好|可以|没问题|\b(?:works|fine|good|correct|properly|as expected)\b/i;
const TECHNICAL_IN_DOD = /compile|build|lint|npm|npx|jest|tsc|eslint|cargo|pytest|go test/i;
/**
 * A criterion longer than this is specific enough even when it uses a vague word. The seed writes
 * "< 20", which lets its own bad example "Code works correctly" (20 characters) through.
 */
const VAGUE_MAX_LENGTH = 20;
/**
 * Criteria about the process rather than the software — who agrees, how the work is split, what gets
 * reviewed — cannot be checked against the code. In the languages issues are written in.
 */
const PROCESS_CRITERION = [
    /\b(?:everyone|everybody|the team|stakeholders?|reviewers?|maintainers?|users?) (?:is|are|feels?|seems?) (?:happy|satisfied|ok|okay|fine|on board)\b/i,
    /\b(?:split|break) (?:this|it|the work) (?:up )?into (?:several|multiple|smaller|separate) (?:PRs|pull requests|issues|commits)\b/i,
    /\b(?:PR|pull request|change|code)s? (?:is|are|gets?|has been|have been) (?:merged|approved|reviewed)\b/i,
    /\b(?:reviewed|approved|signed off) by\b|\bsign[- ]off\b|\b(?:get|gets|getting) (?:approval|feedback|buy-in)\b/i,
    /\b(?:discuss(?:ed)? (?:with|in)|talk to|agree (?:with|on)|decide (?:with|on)|to be decided|TBD)\b/i,
    /(?:大家|团队|所有人)(?:都)?(?:满意|同意|认可)|(?:代码)?评审通过|讨论(?:后|一下)|拆分成(?:多个|几个)\s*PR/,
    /(?:みんな|チーム|全員)が(?:満足|合意|納得)|レビュー(?:で承認|を通過|が通る)|相談(?:する|して)/,
    /\b(?:todos|a equipe|o time) (?:est[ãa]o|fica[mr]?) (?:satisfeitos?|de acordo)|\b(?:aprovad[oa]|revisad[oa]) (?:pel[oa]|por)\b|\bdiscutir com\b/i,
];
/** A verification shorter than this cannot be executed (the seed's threshold), unless it is a command. */
const VERIFICATION_MIN_LENGTH = 5;
/** `solution-schema.md`, "质量门控": the weights of the four components. */
const SCORE_WEIGHTS = {
    completeness: 0.3,
    dependency_validity: 0.2,
    testable_acceptance: 0.3,
    complexity_assessed: 0.2,
};
const PASS_SCORE = 0.8;
const REVIEW_SCORE = 0.6;
const ANALYSIS_FIELDS = ['risk', 'impact', 'complexity'];
/**
 * Scores a plan and lists what a reviewer would change, in O(total plan size).
 * Findings come out ordered by severity, then by task (solution-level findings after the tasks).
 */
function assessQuality(solution, dag) {
    const bySeverity = { critical: [], high: [], medium: [], low: [] };
    const report = (finding) => bySeverity[finding.severity].push(finding);
    const tasks = solution.tasks;
    let complete = 0;
    let testable = 0;
    for (let i = 0; i < tasks.length; i++) {
        const result = checkTask(tasks[i], `tasks[${i}]`, report);
        if (result.complete)
            complete++;
        testable += result.testable;
    }
    let assessed = 0;
    for (const field of ANALYSIS_FIELDS) {
        if (solution.analysis?.[field] !== undefined)
            assessed++;
        else
            report({
                rule: 'analysis-missing',
                severity: 'low',
                path: `analysis.${field}`,
                message: `The plan does not assess its ${field}`,
                fix: `Set analysis.${field} to low, medium or high`,
            });
    }
    const unordered = unorderedSharedFiles(tasks, dag);
    for (const finding of unordered.findings)
        report(finding);
    const breakdown = {
        completeness: fraction(complete, tasks.length),
        dependency_validity: dependencyValidity(tasks, dag, unordered.tasks),
        testable_acceptance: fraction(testable, tasks.length),
        complexity_assessed: fraction(assessed, ANALYSIS_FIELDS.length),
    };
    const score = round4(breakdown.completeness * SCORE_WEIGHTS.completeness +
        breakdown.dependency_validity * SCORE_WEIGHTS.dependency_validity +
        breakdown.testable_acceptance * SCORE_WEIGHTS.testable_acceptance +
        breakdown.complexity_assessed * SCORE_WEIGHTS.complexity_assessed);
    const unverified = nothingVerifiedByACommand(tasks);
    if (unverified)
        report(unverified);
    const misread = workLeftOut(solution);
    if (misread)
        report(misread);
    const risky = highRisk(solution);
    if (risky)
        report(risky);
    const issues_by_severity = {
        critical: bySeverity.critical.length,
        high: bySeverity.high.length,
        medium: bySeverity.medium.length,
        low: bySeverity.low.length,
    };
    return {
        score,
        quality_score: Math.round(score * 100),
        quality_gate: capAtReview(qualityGate(score, issues_by_severity.critical > 0), unverified !== undefined || misread !== undefined),
        breakdown,
        findings: [...bySeverity.critical, ...bySeverity.high, ...bySeverity.medium, ...bySeverity.low],
        issues_by_severity,
    };
}
/** pass ≥ 0.8 without a critical finding; review ≥ 0.6 (or ≥ 0.8 with one); fail below 0.6. */
function qualityGate(score, hasCritical) {
    if (score >= PASS_SCORE && !hasCritical)
        return 'pass';
    return score >= REVIEW_SCORE ? 'review' : 'fail';
}
/**
 * Gate rule: a plan where no command will run cannot pass — nothing would check its work (at most review).
 * Kept as one small rule: the finding, and `capAtReview` where the gate is decided.
 */
function nothingVerifiedByACommand(tasks) {
    const entries = tasks.flatMap((t) => (0,model_verification/* verificationEntries */.Ym)(t));
    if (entries.some((e) => e.kind === 'command'))
        return undefined;
    return {
        rule: 'no-command-verification',
        severity: 'high',
        path: 'tasks',
        message: `Nothing will be verified by a command: ${entries.length ? 'every verification is manual' : 'no task has a verification'}`,
        fix: 'Give at least one task a command to run, e.g. "verification": ["npm test"] or "Run: npm test"',
    };
}
/**
 * Gate rule (issue 38): a plan that leaves out work the issue asks for, or whose criteria the issue did not state
 * (`left_out` entries marked `work`), cannot pass: a person checks what was left out (at most review).
 */
function workLeftOut(solution) {
    const work = (solution.left_out ?? []).filter((l) => l.work);
    if (!work.length)
        return undefined;
    return {
        rule: 'issue-work-left-out',
        severity: 'high',
        path: 'left_out',
        message: `The plan leaves out what the issue asks: ${work.map((l) => `"${l.item}" (${l.reason})`).join('; ')}`,
        fix: 'Give each left-out item a task (or a criterion) of its own, or say in the plan why it is not needed',
    };
}
/**
 * Gate rule (issue 38): a plan whose risk is high says why (data changed in production, authentication or access,
 * a public API removed, a security report), so that the approver reads it before approving. It does not lower the gate.
 */
function highRisk(solution) {
    if (solution.analysis?.risk !== 'high')
        return undefined;
    const why = solution.analysis.risk_reason;
    return {
        rule: 'high-risk',
        severity: 'medium',
        path: 'analysis.risk',
        message: `The plan is high risk${why ? ` (${why})` : ''}`,
        fix: 'Read the plan with the risk in mind before approving it: a dry run, a backup or a second reviewer',
    };
}
function capAtReview(gate, unverified) {
    return unverified && gate === 'pass' ? 'review' : gate;
}
function checkTask(task, at, report) {
    const task_id = task.id;
    const { criteria, verification, definition_of_done } = task.convergence;
    let vague = 0;
    criteria.forEach((criterion, k) => {
        if (PROCESS_CRITERION.some((pattern) => pattern.test(criterion))) {
            vague++;
            report({
                rule: 'untestable-criterion', severity: 'medium', task_id, path: `${at}.convergence.criteria[${k}]`,
                message: `Criterion "${criterion}" is about the process, not the software: no check of the code can decide it`, value: criterion,
                fix: 'Keep process notes out of the criteria (put them in the description) and state what the software does when the work is done',
            });
        }
        else if (sameWords(criterion, task.title)) {
            vague++;
            report({
                rule: 'criterion-repeats-title', severity: 'medium', task_id, path: `${at}.convergence.criteria[${k}]`,
                message: `Criterion "${criterion}" only repeats ${task_id}'s title: it says what to do, not how to tell it is done`, value: criterion,
                fix: 'State what is observably true once the task is done, e.g. "GET /export?format=csv returns the rows with their tags"',
            });
        }
        else if (criterion.length <= VAGUE_MAX_LENGTH && VAGUE_PATTERNS.test(criterion)) {
            vague++;
            report({
                rule: 'vague-criterion', severity: 'medium', task_id, path: `${at}.convergence.criteria[${k}]`,
                message: `Criterion "${criterion}" is too vague to check`, value: criterion,
                fix: 'Replace it with an observable condition, e.g. "refreshToken() returns a new JWT with >0 expiry when called with an expired token"',
            });
        }
    });
    if (criteria.length === 0)
        report({
            rule: 'no-criteria', severity: 'critical', task_id, path: `${at}.convergence.criteria`,
            message: `${task_id} has no convergence criteria: nothing says when it is done`,
            fix: 'Add at least one observable condition to convergence.criteria, e.g. "GET /health returns 200 with { status: \'ok\' }"',
        });
    const entries = (0,model_verification/* verificationEntries */.Ym)(task);
    const runnable = entries.some((e) => e.kind === 'command');
    // A short verification that is a command (`make`) is fine. If it is not listed as manual, it is a
    // command: either listed as one or merged into the same command from test.commands.
    const hasManualVerification = entries.some((e) => e.kind === 'manual' && e.source === 'convergence.verification');
    const trimmedVerification = verification.trim();
    if (trimmedVerification.length < VERIFICATION_MIN_LENGTH && hasManualVerification)
        report({
            rule: 'verification-too-short', severity: 'high', task_id, path: `${at}.convergence.verification`,
            message: `Verification "${trimmedVerification}" is too short to be executed`, value: trimmedVerification,
            fix: 'Give a shell command (e.g. "npm test -- auth.test.ts") or numbered steps, one per line',
        });
    if (!runnable) {
        const manual = entries.length;
        report({
            rule: 'no-runnable-verification', severity: 'high', task_id, path: `${at}.convergence.verification`,
            message: manual
                ? `${task_id} can only be verified by hand: ${manual === 1 ? 'its one verification step is' : `all ${manual} verification steps are`} manual`
                : `${task_id} has no verification: no test command and no verification step`,
            fix: 'Add a command to test.commands or a line "Run: <command>" to convergence.verification (e.g. "Run: npm test -- auth")',
        });
    }
    if (!definition_of_done.trim())
        report({
            rule: 'no-definition-of-done', severity: 'low', task_id, path: `${at}.convergence.definition_of_done`,
            message: `${task_id} has no definition of done`,
            fix: 'Say in business language what is true for users when the task is done, e.g. "Users remain logged in across token expiration"',
        });
    else if (TECHNICAL_IN_DOD.test(definition_of_done))
        report({
            rule: 'technical-definition-of-done', severity: 'low', task_id, path: `${at}.convergence.definition_of_done`,
            message: 'The definition of done names technical commands; a non-technical stakeholder cannot judge it',
            value: definition_of_done,
            fix: 'Rewrite it as the user or system outcome (e.g. "Users remain logged in across token expiration") and move commands to test.commands',
        });
    task.files.forEach((file, k) => {
        if (file.action === 'modify' && file.changes.length === 0)
            report({
                rule: 'modify-without-changes', severity: 'medium', task_id, path: `${at}.files[${k}].changes`,
                message: `${file.path} is to be modified but no change is described`, value: file.path,
                fix: `Describe what specifically changes in ${file.path}, e.g. "Add await to refreshToken() call at line 89"`,
            });
    });
    if (task.files.length === 0)
        report({
            rule: 'no-files', severity: 'low', task_id, path: `${at}.files`,
            message: `${task_id} names no files`,
            fix: 'List the files it creates or changes in files[] ({ path, action, changes }): the executor gets concrete targets and the scheduler keeps tasks that touch the same file apart',
        });
    const hasDescription = task.description.trim() !== '';
    const hasSteps = task.implementation.length > 0;
    if (!hasSteps && !hasDescription)
        report({
            rule: 'no-guidance', severity: 'high', task_id, path: `${at}.implementation`,
            message: `${task_id} has neither a description nor implementation steps: the executor has only the title`,
            fix: 'Describe the task and add implementation steps ({ "step": "1", "description": …, "actions": [] })',
        });
    else if (!hasSteps)
        report({
            rule: 'no-implementation', severity: 'medium', task_id, path: `${at}.implementation`,
            message: `${task_id} has no implementation steps`,
            fix: 'Add at least one step describing how to realise this task',
        });
    return {
        complete: task.title.trim() !== '' && (hasDescription || hasSteps) && criteria.length > 0,
        testable: (criteria.length > 0 && vague === 0 ? 0.5 : 0) + (runnable ? 0.5 : 0),
    };
}
/** The same text once case, punctuation and spacing are set aside. */
function sameWords(a, b) {
    const words = (text) => text.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean).join(' ');
    return words(a) !== '' && words(a) === words(b);
}
/**
 * The share of tasks whose order is sound: no DAG error names them (cycle members included) and they
 * share no file with a task they are not ordered against.
 */
function dependencyValidity(tasks, dag, unordered) {
    if (dag.errors.length === 0 && unordered.size === 0)
        return 1;
    const named = new Set(unordered);
    for (const error of dag.errors) {
        named.add(error.task_id);
        for (const id of error.cycle ?? [])
            named.add(id);
    }
    let clean = 0;
    for (const task of tasks)
        if (!named.has(task.id))
            clean++;
    return fraction(clean, tasks.length);
}
/**
 * Tasks that change the same file while neither depends on the other, even indirectly: the plan does not
 * say which goes first (the scheduler keeps them apart, in plan order, which may be the wrong one). Two
 * tasks at the same dependency depth cannot reach each other, so comparing depths finds them in
 * O(tasks + dependencies + file entries); a pair at different depths is taken as ordered. One finding per file.
 */
function unorderedSharedFiles(tasks, dag) {
    const found = { findings: [], tasks: new Set() };
    if (!dag.conflicts.length)
        return found;
    const byId = new Map(tasks.map((t, i) => [t.id, { task: t, index: i }]));
    const depth = new Map();
    for (const id of dag.order) {
        let d = 0;
        for (const dep of byId.get(id)?.task.depends_on ?? [])
            d = Math.max(d, (depth.get(dep) ?? -1) + 1);
        depth.set(id, d);
    }
    for (const conflict of dag.conflicts) {
        const seen = new Map();
        for (const id of conflict.tasks) {
            const d = depth.get(id);
            if (d === undefined)
                continue;
            const other = seen.get(d);
            if (other === undefined) {
                seen.set(d, id);
                continue;
            }
            found.tasks.add(other).add(id);
            found.findings.push({
                rule: 'unordered-shared-file', severity: 'medium', task_id: id, path: `tasks[${byId.get(id).index}].depends_on`,
                message: `${other} and ${id} both change ${conflict.path} but neither depends on the other: the plan does not say which goes first`,
                value: conflict.path,
                fix: `Add "depends_on": ["${other}"] to ${id} (or the other way round), or merge the two changes to ${conflict.path} into one task`,
            });
            break;
        }
    }
    return found;
}
/** A share in 0..1; an empty plan has no complete task. */
function fraction(count, total) {
    return total === 0 ? 0 : round4(count / total);
}
/** Four decimals: enough to show, and keeps 0.3 + 0.2 + 0.3 from landing at 0.7999… below a threshold. */
function round4(value) {
    return Math.round(value * 10_000) / 10_000;
}

// EXTERNAL MODULE: ./src/plan/read.ts + 1 modules
var read = __webpack_require__(9024);
// EXTERNAL MODULE: ./src/plan/taskmaster.ts
var taskmaster = __webpack_require__(7260);
;// CONCATENATED MODULE: ./src/plan/analyse.ts





/**
 * `issueNumber`: the issue the plan is for, when known; a plan that names no issue (a Taskmaster file, a CCW
 * solution without `issue_id`) is read for it (issue 0 when validating a file on its own).
 */
function analysePlan(raw, issueNumber) {
    const parsed = (0,read/* parseSolution */.Pm)((0,taskmaster/* fromTaskmaster */.U)(raw, issueNumber ?? 0) ?? raw, issueNumber === undefined ? {} : { issueNumber });
    if (!parsed.ok)
        return { errors: parsed.errors, warnings: parsed.warnings, gate: 'fail' };
    return analyseSolution(parsed.solution, parsed.warnings);
}
/** The analysis of a plan already read as canonical (a stored `plan.json`): nothing to read again, no warnings of form. */
function analyseSolution(solution, warnings = []) {
    const dag = (0,plan_dag/* analyseDag */.m)(solution.tasks);
    const errors = dag.errors.map((e) => ({ code: e.code, path: e.path, message: e.message, hint: e.fix }));
    const quality = assessQuality(solution, dag);
    return { solution, errors, warnings, dag, quality, proof: (0,proof_findings/* proofFindings */.zC)(solution), gate: errors.length ? 'fail' : quality.quality_gate };
}
/** `analysePlan` for plan text (a file, a fenced block): JSON syntax errors are reported like any other error. */
function analysePlanText(text, issueNumber) {
    const json = readPlanJson(text);
    if (!json.ok)
        return { errors: [json.error], warnings: [], gate: 'fail' };
    return analysePlan(json.value, issueNumber);
}


/***/ }),

/***/ 6440:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   JL: () => (/* binding */ missingFileFindings),
/* harmony export */   MF: () => (/* binding */ linkCriteria),
/* harmony export */   zC: () => (/* binding */ proofFindings)
/* harmony export */ });
/* unused harmony export isWholeSuite */
/* harmony import */ var _model_verification_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(8162);

/** Types whose work must make a check pass that failed before: a suite that passed already proves nothing. */
const CHANGE_TYPES = new Set(['fix', 'feature', 'enhancement']);
/**
 * The whole test suite, named by nothing more than its runner: `npm test`, `pytest`, `go test ./...`,
 * `cargo test`, `make test`… with at most flags after it (`-q`, `--silent`), no test file or name.
 */
const WHOLE_SUITE = new RegExp('^(?:(?:npm|pnpm|yarn|bun)(?: run)? test|npx (?:vitest(?: run)?|jest|mocha)|vitest(?: run)?|jest|mocha|(?:python3? -m )?pytest|' +
    'go test(?: \\./\\.\\.\\.)?|cargo test|make (?:test|check)|mvn test|gradle test|\\./gradlew test|(?:bundle exec )?(?:rspec|rake(?: test)?)|' +
    'dotnet test|mix test|phpunit|(?:vendor/bin/)?phpunit|tox|deno test|bun test)(?: +-{1,2}[\\w-]+(?:=\\S+)?)*$');
function isWholeSuite(command) {
    return WHOLE_SUITE.test(command.trim().replace(/\s+/g, ' '));
}
/** Findings that need only the plan: suite-only fix and feature tasks, and the criteria no command checks. */
function proofFindings(solution) {
    const findings = [];
    solution.tasks.forEach((task, i) => {
        const commands = (0,_model_verification_js__WEBPACK_IMPORTED_MODULE_0__/* .verificationEntries */ .Ym)(task).flatMap((e) => (e.kind === 'command' ? [e.command] : []));
        if (CHANGE_TYPES.has(task.type) && commands.length === 1 && isWholeSuite(commands[0]))
            findings.push({
                rule: 'suite-only-check',
                severity: 'medium',
                path: `tasks[${i}].test.commands`,
                message: `${task.id} is a ${task.type} task checked only by \`${commands[0]}\`, the whole test suite, which passes before the change too when no test of it exists: it will read as unproven`,
                fix: `Name the test of the change (e.g. \`${commands[0]} -- <the new test file>\`), or add a command that fails until ${task.id} is done`,
            });
    });
    const waiting = solution.tasks.filter((t) => uncheckedCriteria(t) > 0);
    const count = waiting.reduce((sum, t) => sum + uncheckedCriteria(t), 0);
    if (count)
        findings.push({
            rule: 'criteria-without-command',
            severity: 'low',
            path: 'tasks',
            message: `${count} ${count === 1 ? 'criterion' : 'criteria'} of ${waiting.map((t) => t.id).join(', ')} no command checks: ${count === 1 ? 'it waits' : 'they wait'} for a person, and never read as verified`,
            fix: 'Link each criterion to the command that checks it (convergence.criteria_commands: [{ "criterion": "…", "command": "…" }]), or check it by hand after the run',
        });
    return findings;
}
/** Criteria of the task that no command it runs is linked to. */
function uncheckedCriteria(task) {
    return task.convergence.criteria.filter((c) => (0,_model_verification_js__WEBPACK_IMPORTED_MODULE_0__/* .linkedCommand */ .DT)(task, c) === undefined).length;
}
/**
 * Tasks that modify (or delete) a file the repository does not have, and do not create it in the plan: they
 * will change nothing there, or something else than the plan says. `exists` answers for the checkout.
 */
function missingFileFindings(solution, exists) {
    const created = new Set(solution.tasks.flatMap((t) => t.files.filter((f) => f.action === 'create').map((f) => normalise(f.path))));
    const findings = [];
    solution.tasks.forEach((task, i) => {
        task.files.forEach((file, j) => {
            const path = normalise(file.path);
            if (file.action === 'create' || created.has(path) || /[*?[]/.test(path) || exists(path))
                return;
            findings.push({
                rule: 'missing-file',
                severity: 'high',
                path: `tasks[${i}].files[${j}].path`,
                message: `${task.id} will ${file.action} \`${file.path}\`, which the repository does not have`,
                fix: `Correct the path, or make it a "create" entry if ${task.id} is to write the file`,
            });
        });
    });
    return findings;
}
const normalise = (path) => path.trim().replace(/^\.\//, '').replace(/\/+$/, '');
/**
 * The links a planner can make from what it wrote: a criterion is checked by the first command that holds one of
 * the criterion's code spans (`` `slugify('Ça va?')` ``, `` `test/slug.test.js` ``, 4 characters or more) word for word.
 */
function linkCriteria(criteria, commands) {
    return criteria.flatMap((criterion) => {
        const spans = [...criterion.matchAll(/`([^`]{4,})`/g)].map((m) => m[1].trim());
        const command = commands.find((c) => spans.some((span) => c.includes(span)));
        return command ? [{ criterion, command }] : [];
    });
}


/***/ }),

/***/ 9024:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  di: () => (/* binding */ MAX_PLAN_BYTES),
  Pm: () => (/* binding */ parseSolution),
  c7: () => (/* binding */ readPlanJson)
});

// UNUSED EXPORTS: MAX_PLAN_DEPTH, editDistance

// EXTERNAL MODULE: ./node_modules/jsonc-parser/lib/umd/main.js
var main = __webpack_require__(9547);
// EXTERNAL MODULE: ./src/model/index.ts + 1 modules
var model = __webpack_require__(4223);
// EXTERNAL MODULE: ./src/model/task.ts
var model_task = __webpack_require__(2524);
// EXTERNAL MODULE: ./src/model/enums.ts
var enums = __webpack_require__(2739);
;// CONCATENATED MODULE: ./src/plan/schema-errors.ts

/** `['tasks', 2, 'convergence', 'criteria']` → `tasks[2].convergence.criteria`. */
function formatPath(path) {
    let out = '';
    for (const key of path) {
        if (typeof key === 'number')
            out += `[${key}]`;
        else
            out += out ? `.${String(key)}` : String(key);
    }
    return out || '(root)';
}
/** The same path with indexes removed (`tasks[].convergence.criteria`), to look up a hint. */
function pathShape(path) {
    return path.map((k) => (typeof k === 'number' ? '[]' : String(k))).join('.').replace(/\.\[\]/g, '[]');
}
const HINTS = {
    id: 'Use SOL-ISS-<issue number>-<sequence>, e.g. "SOL-ISS-42-1"',
    issue_id: 'Use ISS-<issue number>, e.g. "ISS-42"',
    description: 'Describe the solution in one or two sentences',
    tasks: 'Add at least one task: { "id": "T1", "title": …, "action": "Modify", … }',
    'tasks[]': 'Each task is an object with at least id, title and action',
    'tasks[].id': 'Use T1, T2, … (TASK-001 is read as T1)',
    'tasks[].title': 'Give the task a short imperative title, e.g. "Add token refresh"',
    'tasks[].action': `Use one of ${model/* TASK_ACTIONS */.am.join(', ')}`,
    'tasks[].type': `Use one of ${model/* TASK_TYPES */.ci.join(', ')}, or leave it out to have it inferred`,
    'tasks[].priority': `Use one of ${model/* PRIORITIES */.BE.join(', ')} or a number from 1 (most urgent) to 5`,
    'tasks[].effort': 'Use small, medium or large, or leave it out to have it inferred',
    'tasks[].files[].path': 'Give the file path relative to the repository root',
    'tasks[].files[].action': `Use one of ${model/* FILE_ACTIONS */.ll.join(', ')}`,
    'tasks[].implementation[]': 'Write each step as a string or as { "step": "1", "description": …, "actions": [] }',
    'tasks[].depends_on': 'List the ids of tasks that must finish first, e.g. ["T1"]',
    'tasks[].depends_on[]': 'Each dependency is a task id string such as "T1"',
    'tasks[].convergence.criteria': 'List observable conditions, e.g. ["GET /health returns 200"]',
    'tasks[].convergence.verification': 'Give one command per line (e.g. "npm test") or "Manual: <step>"',
    'tasks[].test.commands': 'List shell commands that verify the task, e.g. ["npm test -- auth"]',
    'tasks[].estimated_minutes': 'Use a positive number of minutes',
    'analysis.risk': 'Use low, medium or high',
    'analysis.impact': 'Use low, medium or high',
    'analysis.complexity': 'Use low, medium or high',
    score: 'Use a number between 0 and 1, or leave it out',
    is_bound: 'Use true or false',
};
/** Turns zod issues into path-precise errors with a fix hint. */
function toPlanErrors(issues) {
    return issues.map((issue) => {
        const path = formatPath(issue.path);
        const shape = pathShape(issue.path);
        const key = issue.path[issue.path.length - 1];
        const hint = HINTS[shape] ?? HINTS[shape.replace(/\[\]$/, '')] ?? genericHint(issue);
        return { code: issue.code, path, message: describe(issue, key), hint };
    });
}
function describe(issue, key) {
    switch (issue.code) {
        case 'invalid_type':
            if (issue.input === undefined)
                return `Missing required field${key !== undefined ? ` "${String(key)}"` : ''}`;
            return `Expected ${issue.expected}, got ${kindOf(issue.input)}`;
        case 'invalid_union':
            return 'Value does not match any accepted form';
        case 'too_small':
            return issue.origin === 'array'
                ? `Needs at least ${issue.minimum} item${issue.minimum === 1 ? '' : 's'}`
                : issue.origin === 'string' ? 'Must not be empty' : `Must be at least ${issue.minimum}`;
        case 'too_big':
            return `Must be at most ${issue.maximum}`;
        default:
            return issue.message;
    }
}
function genericHint(issue) {
    if (issue.code === 'invalid_type') {
        if (issue.path.length === 0 && issue.expected === 'object')
            return 'A plan is one JSON object (a solution with its tasks), not a list: pass one solution, or a .jsonl of solutions with --all';
        return `Provide ${/^[aeiou]/.test(String(issue.expected)) ? 'an' : 'a'} ${issue.expected}`;
    }
    return 'See schemas/solution.schema.json for the accepted shape';
}
function kindOf(value) {
    if (value === null)
        return 'null';
    if (Array.isArray(value))
        return 'an array';
    return typeof value === 'object' ? 'an object' : `${typeof value} ${JSON.stringify(value)?.slice(0, 40)}`;
}

;// CONCATENATED MODULE: ./src/plan/read.ts





/** Plans larger than this are refused before parsing; real plans are a few kilobytes. */
const MAX_PLAN_BYTES = 32 * 1024 * 1024;
/** Nesting of arrays and objects allowed in a plan; real plans nest about six levels, and every reader downstream recurses. */
const MAX_PLAN_DEPTH = 100;
/** The offset where `text` (JSON) opens its `limit + 1`-th nested array or object, if it does; strings are skipped. */
function nestingBeyond(text, limit) {
    let depth = 0;
    let inString = false;
    for (let i = 0; i < text.length; i++) {
        const c = text.charCodeAt(i);
        if (inString) {
            if (c === 0x5c)
                i++; // backslash: the next character is escaped
            else if (c === 0x22)
                inString = false;
        }
        else if (c === 0x22)
            inString = true;
        else if (c === 0x5b || c === 0x7b) {
            if (++depth > limit)
                return i;
        }
        else if (c === 0x5d || c === 0x7d)
            depth--;
    }
    return undefined;
}
/** Parses plan text as JSON, reporting a syntax error with its line and column. */
function readPlanJson(text) {
    if (text.length > MAX_PLAN_BYTES)
        return { ok: false, error: { code: 'too_large', path: '(root)', message: `Plan is ${text.length} bytes; the limit is ${MAX_PLAN_BYTES}`, hint: 'Split the work into several issues' } };
    const tooDeep = nestingBeyond(text, MAX_PLAN_DEPTH);
    if (tooDeep !== undefined) {
        const { line, column } = lineAndColumn(text, tooDeep);
        return {
            ok: false,
            error: {
                code: 'too_deep',
                path: '(root)',
                message: `Plan is too deeply nested at line ${line}, column ${column}: more than ${MAX_PLAN_DEPTH} levels of arrays and objects`,
                hint: 'A plan is a solution object with a list of tasks; nothing in it nests this deep',
            },
        };
    }
    try {
        return { ok: true, value: JSON.parse(text.replace(/^\uFEFF/, '')) };
    }
    catch {
        return { ok: false, error: jsonSyntaxError(text) };
    }
}
/**
 * V8 gives no position for some syntax errors on Node 20 (a prose line before the JSON, input cut
 * short), so the position comes from a second, error-collecting parse with JSON's own rules.
 */
function jsonSyntaxError(text) {
    const errors = [];
    (0,main.parse)(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
    const first = errors[0];
    const what = first ? words((0,main.printParseErrorCode)(first.error)) : 'not valid JSON';
    const where = first ? lineAndColumn(text, first.offset) : undefined;
    const near = first ? text.slice(first.offset, first.offset + 30).split('\n')[0] : '';
    return {
        code: 'invalid_json',
        path: '(root)',
        message: `Not valid JSON${where ? ` at line ${where.line}, column ${where.column}` : ''}: ${what}${near ? ` near "${near}"` : ''}`,
        hint: 'Check for a missing comma or quote, trailing commas and comments, which JSON does not allow',
    };
}
/** `CommaExpected` → `comma expected`. */
function words(code) {
    return code.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
}
/** Validates and normalises a solution; unknown fields are kept out and reported as warnings. */
function parseSolution(raw, context = {}) {
    const input = withContext(raw, context.issueNumber);
    const warnings = unknownFieldWarnings(input);
    const lostDependencies = unreadDependencyFields(input);
    const elsewhere = tasksElsewhere(input);
    if (elsewhere)
        return { ok: false, errors: [elsewhere], warnings };
    const result = model/* SolutionInputSchema */.bz.safeParse(input, { reportInput: true });
    if (!result.success)
        return { ok: false, errors: [...lostDependencies, ...toPlanErrors(result.error.issues)], warnings };
    if (lostDependencies.length)
        return { ok: false, errors: lostDependencies, warnings };
    return { ok: true, solution: result.data, warnings: [...warnings, ...unknownEnumValues(input, result.data)] };
}
/**
 * The plan as CCW leaves it to its reader: the issue from where the plan was found when it names none, and
 * `summary` (lite and fix plans) as the description when there is none.
 */
function withContext(raw, issueNumber) {
    if (!isObject(raw))
        return raw;
    const plan = { ...raw };
    if (issueNumber !== undefined && plan.issue_id === undefined)
        plan.issue_id = (0,model/* issueId */.fR)(issueNumber);
    if (plan.description === undefined && typeof plan.summary === 'string')
        plan.description = plan.summary;
    return plan;
}
/** CCW's two-layer lite plan: `plan.json` lists `task_ids` and each task is a file of its own under `.task/`. */
function tasksElsewhere(raw) {
    if (!isObject(raw) || raw.tasks !== undefined || !Array.isArray(raw.task_ids))
        return undefined;
    return {
        code: 'tasks_elsewhere',
        path: 'tasks',
        message: `The plan lists task_ids (${raw.task_ids.slice(0, 5).join(', ')}) but holds no tasks: this is a plan overview whose tasks are separate files`,
        hint: 'Put the task objects (the .task/*.json files) in a "tasks" array of this plan, in order',
    };
}
/**
 * Values of optional enum fields that are not in the enum (CCW's `"action": "Notify"`, the docs' `"type": "new
 * file"`): read as if left out, inferred, and reported with what they were read as.
 */
function unknownEnumValues(raw, solution) {
    const findings = [];
    if (!isObject(raw) || !Array.isArray(raw.tasks))
        return findings;
    const report = (value, known, path, field, readAs, taskId) => {
        if (typeof value !== 'string' || known.schema.safeParse(value).success)
            return;
        findings.push({
            rule: 'unknown-enum-value',
            severity: 'low',
            task_id: taskId,
            path,
            message: `${field} ${(0,enums/* quoteInput */.Zs)(value)} is not one of ${known.values.join(', ')}: read as "${readAs}"`,
            fix: `Use one of ${known.values.join(', ')}, or leave ${field} out to have it inferred`,
        });
    };
    raw.tasks.forEach((task, i) => {
        const read = solution.tasks[i];
        if (!isObject(task) || !read)
            return;
        for (const [field, known] of Object.entries(model_task/* SOFT_TASK_ENUMS */.kK))
            report(task[field], known, `tasks[${i}].${field}`, field, String(read[field]), read.id);
        if (!Array.isArray(task.files))
            return;
        task.files.forEach((file, k) => {
            const readFile = isObject(file) ? read.files.find((f) => f.path === String(file.path).trim()) : undefined;
            if (isObject(file) && readFile)
                report(file.action, model_task/* SOFT_FILE_ENUMS */.F6.action, `tasks[${i}].files[${k}].action`, 'file action', readFile.action, read.id);
        });
    });
    return findings;
}
function lineAndColumn(text, offset) {
    let line = 1;
    let lineStart = 0;
    for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
        line++;
        lineStart = i + 1;
    }
    return { line, column: offset - lineStart + 1 };
}
const NESTED_KEYS = {
    convergence: ['criteria', 'verification', 'definition_of_done', 'criteria_commands'],
    acceptance: ['criteria', 'verification', 'manual_checks'],
    test: ['commands', 'unit', 'integration', 'manual_checks'],
    files: ['path', 'action', 'target', 'changes', 'change'],
    modification_points: ['file', 'target', 'change', 'changes'],
    verification: ['unit_tests', 'integration_tests', 'manual_checks', 'success_metrics'],
};
function unknownFieldWarnings(raw) {
    const warnings = [];
    if (!isObject(raw))
        return warnings;
    checkKeys(raw, model/* SOLUTION_KEYS */.xx, '', warnings);
    if (!Array.isArray(raw.tasks))
        return warnings;
    raw.tasks.forEach((task, i) => {
        if (!isObject(task))
            return;
        const at = `tasks[${i}]`;
        const taskId = typeof task.id === 'string' ? task.id : undefined;
        checkKeys(task, model/* TASK_KEYS */.$P, at, warnings, taskId);
        for (const [key, known] of Object.entries(NESTED_KEYS)) {
            const value = task[key];
            if (isObject(value))
                checkKeys(value, known, `${at}.${key}`, warnings, taskId);
            else if (Array.isArray(value))
                value.forEach((item, k) => isObject(item) && checkKeys(item, known, `${at}.${key}[${k}]`, warnings, taskId));
        }
    });
    return warnings;
}
/** Task fields that state dependencies and are read; see `TaskInputObject`. */
const DEPENDENCY_KEYS = ['depends_on', 'dependencies'];
/** A field name that says "this task waits for others". */
const DEPENDENCY_NAME = /depend|prereq|requires|blocked|after|wait|predecessor|needs/i;
/**
 * A dependency is never dropped in silence: an unknown task field that looks like one — by its name, or by
 * holding ids of the plan's tasks — is an error, where other unknown fields are only a remark.
 */
function unreadDependencyFields(raw) {
    if (!isObject(raw) || !Array.isArray(raw.tasks))
        return [];
    const ids = new Set(raw.tasks.flatMap((t) => (isObject(t) && (typeof t.id === 'string' || typeof t.id === 'number') ? [String(t.id)] : [])));
    const holdsTaskIds = (value) => Array.isArray(value) && value.length > 0 && value.every((v) => (typeof v === 'string' || typeof v === 'number') && ids.has(String(v)));
    const errors = [];
    raw.tasks.forEach((task, i) => {
        if (!isObject(task))
            return;
        for (const [key, value] of Object.entries(task)) {
            if (model/* TASK_KEYS */.$P.includes(key) || key === 'id')
                continue;
            if (!DEPENDENCY_NAME.test(key) && !holdsTaskIds(value))
                continue;
            errors.push({
                code: 'unread_dependency',
                path: `tasks[${i}].${key}`,
                message: `Field "${key}" looks like a dependency list but is not read; the task's dependencies would be lost`,
                hint: `Did you mean "depends_on"? Dependencies are read from ${DEPENDENCY_KEYS.map((k) => `"${k}"`).join(', ')} and "context.depends_on"`,
            });
        }
    });
    return errors;
}
function checkKeys(obj, known, at, out, taskId) {
    for (const key of Object.keys(obj)) {
        if (known.includes(key))
            continue;
        const suggestion = closest(key, known);
        out.push({
            rule: 'unknown-field',
            severity: 'low',
            ...(taskId ? { task_id: taskId } : {}),
            path: at ? `${at}.${key}` : key,
            message: `Unknown field "${key}" is ignored`,
            fix: suggestion ? `Did you mean "${suggestion}"?` : `Remove it, or use one of: ${known.join(', ')}`,
        });
    }
}
function closest(key, known) {
    let best;
    let bestDistance = Math.max(2, Math.floor(key.length / 4));
    for (const candidate of known) {
        const d = editDistance(key.toLowerCase(), candidate);
        if (d <= bestDistance) {
            best = candidate;
            bestDistance = d;
        }
    }
    return best;
}
/** Levenshtein distance. */
function editDistance(a, b) {
    let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
    for (let i = 1; i <= a.length; i++) {
        const current = [i];
        for (let j = 1; j <= b.length; j++)
            current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
        previous = current;
    }
    return previous[b.length];
}
function isObject(value) {
    return typeof value === 'object' && value !== null && !Array.isArray(value);
}


/***/ }),

/***/ 7260:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   U: () => (/* binding */ fromTaskmaster)
/* harmony export */ });
/**
 * Taskmaster (eyaltoledano/claude-task-master) `tasks.json` read as a Converge solution input. Its files are
 * tagged (`{ "master": { "tasks": [...] } }`) or, in older versions, untagged (`{ "tasks": [...] }`). Each
 * task has a numeric id, `dependencies` (numeric ids), `details`, `testStrategy` and `subtasks`.
 */
/** The tasks of a Taskmaster file and the tag they came from, or undefined when `raw` is not one. */
function taskmasterTasks(raw) {
    if (!isObject(raw))
        return undefined;
    if (isTaskList(raw.tasks) && !('description' in raw) && !('id' in raw))
        return { tasks: raw.tasks };
    const tags = Object.entries(raw).filter(([, v]) => isObject(v) && isTaskList(v.tasks));
    if (tags.length === 0 || tags.length !== Object.keys(raw).length)
        return undefined;
    // The master tag is Taskmaster's default; a file with one tag is that tag.
    const [tag, value] = tags.find(([name]) => name === 'master') ?? tags[0];
    return { tag, tasks: value.tasks };
}
/** A Taskmaster task list: numeric ids (Converge's own tasks have `T<n>` ids). */
function isTaskList(value) {
    return Array.isArray(value) && value.length > 0 && value.every((t) => isObject(t) && typeof t.id === 'number');
}
/**
 * The solution input for a Taskmaster file: task `n` becomes `Tn`, `dependencies` become `depends_on`,
 * `description` and `details` the description, `testStrategy` the criterion and verification (a one-line
 * command runs, prose is a manual check), subtasks the task's implementation steps. Undefined when `raw`
 * is not a Taskmaster file.
 */
function fromTaskmaster(raw, issueNumber) {
    const found = taskmasterTasks(raw);
    if (!found)
        return undefined;
    return {
        id: `SOL-ISS-${issueNumber}-1`,
        issue_id: `ISS-${issueNumber}`,
        description: `Taskmaster plan${found.tag ? ` (tag ${found.tag})` : ''}: ${found.tasks.map((t) => t.title).join('; ')}`,
        tasks: found.tasks.map((t) => ({
            id: `T${t.id}`,
            title: t.title,
            description: [t.description, t.details].filter(Boolean).join('\n\n'),
            ...(t.priority ? { priority: t.priority } : {}),
            depends_on: (t.dependencies ?? []).map((d) => `T${d}`),
            ...(t.testStrategy ? { convergence: { criteria: [t.testStrategy], verification: t.testStrategy } } : {}),
            ...(t.subtasks?.length
                ? {
                    implementation: t.subtasks.map((s) => ({
                        step: `${t.id}.${s.id}`,
                        description: [s.title, s.description].filter(Boolean).join(': '),
                        actions: s.details ? [s.details] : [],
                    })),
                }
                : {}),
            source: { tool: 'taskmaster', original_id: String(t.id) },
        })),
    };
}
function isObject(value) {
    return typeof value === 'object' && value !== null && !Array.isArray(value);
}


/***/ }),

/***/ 3448:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   A: () => (/* binding */ openBlockers),
/* harmony export */   p: () => (/* binding */ blockerStatus)
/* harmony export */ });
/** A blocker's status for a reason or a comment: `not planned` while Converge has done no more than register it. */
function blockerStatus(status) {
    return status === undefined || status === 'registered' ? 'not planned' : status;
}
/**
 * The blockers in `blockedBy` that are not done: a blocker completed in the state, or closed on GitHub, is
 * done. So is one `sync` does not track: it lists every open issue, so an untracked one is closed (or outside
 * the label `sync` was asked to follow, where the execute gate asks GitHub about it).
 */
function openBlockers(blockedBy, issues) {
    const open = [];
    for (const number of blockedBy ?? []) {
        const summary = issues[`ISS-${number}`];
        if (!summary || summary.closed || summary.status === 'completed')
            continue;
        open.push({ number, status: blockerStatus(summary.status) });
    }
    return open;
}


/***/ }),

/***/ 1659:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   a: () => (/* binding */ stripAnsi)
/* harmony export */ });
/**
 * Removes ANSI escape sequences (colours, cursor moves, OSC hyperlinks). A run of sequences is one match: coloured
 * test output holds hundreds of them, mostly back to back, and each match costs more than the characters it spans.
 */
function stripAnsi(text) {
    return text.replace(/(?:\u001b(?:\[[0-9;?]*[ -/]*[@-~]|\][^\u0007\u001b]*(?:\u0007|\u001b\\)|[@-Z\\-_]))+/g, '');
}


/***/ }),

/***/ 2011:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   a3: () => (/* binding */ formatDuration),
/* harmony export */   d5: () => (/* binding */ elapsedMs),
/* harmony export */   hr: () => (/* binding */ progressBar),
/* harmony export */   pK: () => (/* binding */ formatUsage)
/* harmony export */ });
/** Numbers as people read them in a report. */
/** `850 ms`, `12.3 s`, `4m 05s`, `1h 02m`. */
function formatDuration(ms) {
    if (ms < 1000)
        return `${Math.round(ms)} ms`;
    if (ms < 60_000)
        return `${(ms / 1000).toFixed(1)} s`;
    const seconds = Math.round(ms / 1000);
    if (seconds < 3600)
        return `${Math.floor(seconds / 60)}m ${pad2(seconds % 60)}s`;
    const minutes = Math.round(seconds / 60);
    return `${Math.floor(minutes / 60)}h ${pad2(minutes % 60)}m`;
}
/**
 * `▰▰▰▱▱`: one segment per task up to ten, then ten segments. A bar is full only when everything is
 * done and shows at least one segment as soon as anything is.
 */
function progressBar(done, total) {
    const width = Math.max(1, Math.min(total, 10));
    let filled = total > 0 ? Math.round((done / total) * width) : 0;
    if (done > 0 && filled === 0)
        filled = 1;
    if (done < total && filled === width)
        filled = width - 1;
    return '▰'.repeat(filled) + '▱'.repeat(width - filled);
}
/** Milliseconds between two ISO timestamps, or undefined when either is missing or unreadable. */
function elapsedMs(from, to) {
    if (!from || !to)
        return undefined;
    const ms = Date.parse(to) - Date.parse(from);
    return Number.isFinite(ms) && ms >= 0 ? ms : undefined;
}
const pad2 = (n) => String(n).padStart(2, '0');
/** `$0.0312 · 18,204 tokens · 9 turns`, each part only when the agent reported it; "not reported" when it reported none. */
function formatUsage(usage) {
    const tokens = usage.input_tokens === null && usage.output_tokens === null ? null : (usage.input_tokens ?? 0) + (usage.output_tokens ?? 0);
    const parts = [
        usage.cost_usd === null ? undefined : `$${usage.cost_usd < 1 ? usage.cost_usd.toFixed(4) : usage.cost_usd.toFixed(2)}`,
        tokens === null ? undefined : `${tokens.toLocaleString('en-US')} tokens`,
        usage.turns === null ? undefined : `${usage.turns} turn${usage.turns === 1 ? '' : 's'}`,
    ].filter(Boolean);
    return parts.length ? parts.join(' · ') : 'not reported';
}


/***/ }),

/***/ 4285:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   DV: () => (/* binding */ codeBlock),
/* harmony export */   Hn: () => (/* binding */ cell),
/* harmony export */   LS: () => (/* binding */ plural),
/* harmony export */   MZ: () => (/* binding */ codeCell),
/* harmony export */   XK: () => (/* binding */ pluralWord),
/* harmony export */   aY: () => (/* binding */ code),
/* harmony export */   js: () => (/* binding */ htmlText),
/* harmony export */   mG: () => (/* binding */ inline),
/* harmony export */   tp: () => (/* binding */ table),
/* harmony export */   xv: () => (/* binding */ truncate),
/* harmony export */   zH: () => (/* binding */ details)
/* harmony export */ });
/** Small markdown helpers; every piece of user text that goes into a report passes through them. */
/** CommonMark ends a line at `\n`, `\r` or `\r\n`: user text must not contain any of them where one line is expected. */
const LINE_BREAKS = /\s*[\r\n]+\s*/g;
const MENTION = /@(?=[\w-])/g;
/**
 * User text inside a table cell: one line, pipes escaped, HTML, entities and @-mentions defused (a bot
 * comment must not ping people named in an issue, nor carry markup someone slipped into a task title).
 */
function cell(text) {
    return escapePipes(defused(text));
}
/**
 * User text in running markdown: `cell`'s defusing, and a line that cannot open a block (a heading, a
 * quote, a list, a code fence, a rule) even where it starts a line or a list item.
 */
function inline(text) {
    const line = defused(text);
    const ordered = ORDERED_ITEM.exec(line);
    if (ordered)
        return `${ordered[0]}\\${line.slice(ordered[0].length)}`;
    return BLOCK_START.test(line) ? `\\${line}` : line;
}
/** What opens a block at the start of a line: a heading, a bullet, a code fence, a thematic break (`>` and `<` are escaped already). */
const BLOCK_START = /^(?:#{1,6}(?=\s|$)|[-+*](?=\s|$)|`{3,}|~{3,}|([-*_])(?:\s*\1){2,}\s*$)/;
/** The number of an ordered list item (`1.` or `1)`), before its delimiter. */
const ORDERED_ITEM = /^\d{1,9}(?=[.)](?:\s|$))/;
/** One line, trimmed (leading spaces would make indented code), with `&`, `<`, `>` and mentions made inert. */
function defused(text) {
    return text
        .replace(LINE_BREAKS, ' ')
        .trim()
        .replace(/&/g, '&amp;')
        .replace(/</g, '&lt;')
        .replace(/>/g, '&gt;')
        .replace(MENTION, '@\u200b');
}
/** User text inside raw HTML (a `<summary>`), where markdown is not read: `cell`'s defusing, and quotes as entities. */
function htmlText(text) {
    return defused(text).replace(/"/g, '&quot;');
}
/** A code span that survives backticks inside. */
function code(text) {
    const flat = text.replace(LINE_BREAKS, ' ');
    const longest = longestRun(flat, '`');
    const fence = '`'.repeat(longest + 1);
    return `${fence}${longest ? ' ' : ''}${flat}${longest ? ' ' : ''}${fence}`;
}
/** A code span inside a table cell: GFM splits cells on a pipe even inside a code span unless it is escaped. */
function codeCell(text) {
    return escapePipes(code(text));
}
/**
 * Every pipe escaped for GFM's table splitter, which reads `\\` as an escaped backslash: a pipe needs an
 * odd number of backslashes before it, so a `\|` the text already holds stays as it is.
 */
function escapePipes(text) {
    return text.replace(/(\\*)\|/g, (run, backslashes) => (backslashes.length % 2 ? run : `${backslashes}\\|`));
}
/** A fenced code block whose fence is longer than any backtick run inside, so the text cannot close it. */
function codeBlock(text, language = 'text') {
    const fence = '`'.repeat(Math.max(3, longestRun(text, '`') + 1));
    return `${fence}${language}\n${text.replace(/\r\n?/g, '\n')}\n${fence}`;
}
function table(header, rows) {
    return [`| ${header.join(' | ')} |`, `| ${header.map(() => '---').join(' | ')} |`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');
}
/** A collapsed section; `summary` is HTML (escape user text with `htmlText`), `body` is markdown. */
function details(summary, body, open = false) {
    return `<details${open ? ' open' : ''}><summary>${summary}</summary>\n\n${body}\n\n</details>`;
}
/** `1 task`, `3 tasks`; `plural(2, 'child', 'children')` for a word whose plural is not `-s`. */
const plural = (n, word, many = `${word}s`) => `${n} ${pluralWord(n, word, many)}`;
/** The word alone, for a count written another way (the board's `1,204 issues`). */
const pluralWord = (n, word, many = `${word}s`) => (n === 1 ? word : many);
/** At most `max` characters (UTF-16 units), ending in `…` when cut; never splits a surrogate pair. */
function truncate(text, max) {
    if (text.length <= max)
        return text;
    let end = Math.max(0, max - 1);
    if (end > 0 && isHighSurrogate(text.charCodeAt(end - 1)))
        end--;
    return `${text.slice(0, end)}…`;
}
function isHighSurrogate(unit) {
    return unit >= 0xd800 && unit <= 0xdbff;
}
function longestRun(text, char) {
    let longest = 0;
    let run = 0;
    for (const c of text) {
        run = c === char ? run + 1 : 0;
        if (run > longest)
            longest = run;
    }
    return longest;
}


/***/ }),

/***/ 5312:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  S7: () => (/* binding */ STATE_ICON),
  xf: () => (/* binding */ approvalOf),
  kK: () => (/* binding */ buildView),
  $Q: () => (/* binding */ criteriaForAPerson),
  $g: () => (/* binding */ isFinished),
  LT: () => (/* binding */ isInProgress),
  Fo: () => (/* binding */ maskedView),
  tc: () => (/* binding */ taskChecks),
  pL: () => (/* binding */ taskConverged)
});

// EXTERNAL MODULE: ./src/plan/analyse.ts + 1 modules
var analyse = __webpack_require__(1376);
// EXTERNAL MODULE: ./src/plan/hash.ts
var plan_hash = __webpack_require__(2239);
// EXTERNAL MODULE: ./src/model/verification.ts
var verification = __webpack_require__(8162);
// EXTERNAL MODULE: ./src/report/evidence-words.ts
var evidence_words = __webpack_require__(2109);
// EXTERNAL MODULE: ./src/model/secrets.ts
var model_secrets = __webpack_require__(5780);
;// CONCATENATED MODULE: ./src/report/secrets.ts

/**
 * The report with every registered secret masked in every string it holds, and token shapes masked in
 * what commands printed (output tails, errors). The result no longer carries the secrets themselves.
 */
function maskReport(report) {
    const { secrets = [], ...rest } = report;
    const masked = (0,model_secrets/* maskStrings */.X1)(rest, secrets);
    if (!masked.execution)
        return masked;
    const tasks = Object.fromEntries(Object.entries(masked.execution.tasks).map(([id, result]) => [
        id,
        {
            ...result,
            error: result.error === null ? null : (0,model_secrets/* maskTokenShapes */._2)(result.error),
            convergence_verified: result.convergence_verified.map((check) => check.output_tail === undefined ? check : { ...check, output_tail: (0,model_secrets/* maskTokenShapes */._2)(check.output_tail) }),
        },
    ]));
    return { ...masked, execution: { ...masked.execution, tasks } };
}

;// CONCATENATED MODULE: ./src/report/task-view.ts





const TASK_STATES = ['converged', 'unproven', 'failed', 'running', 'blocked', 'pending', 'skipped'];
const STATE_ICON = {
    converged: '✅', unproven: '⚠️', failed: '❌', running: '🔄', blocked: '⛔', pending: '⏳', skipped: '⏭️',
};
/** `approval`: given by a caller that has the plan's hash already (hashing a plan is most of a board's work). */
function buildView(report, approval = approvalOf(report.solution)) {
    const { solution } = report;
    const analysis = report.analysis ?? (solution ? (0,analyse/* analysePlan */.J6)(solution) : undefined);
    const tasks = solution ? taskViews(solution.tasks, report, analysis) : [];
    const count = Object.fromEntries(TASK_STATES.map((s) => [s, 0]));
    for (const t of tasks)
        count[t.state]++;
    const started = report.execution !== undefined || (report.running?.length ?? 0) > 0;
    return { report, analysis, tasks, count, approval, started };
}
/**
 * The view of a report with every secret masked, for rendering. The approval is judged on the stored plan: a
 * masked copy of a plan that holds a secret hashes differently and would read as approved for an earlier version.
 */
function maskedView(report) {
    return { ...buildView(maskReport(report)), approval: approvalOf(report.solution) };
}
/** Whether `solution` is approved, and for this very content (`hash`: its plan hash). */
function approvalOf(solution, hash = solution && (0,plan_hash/* planHash */.SH)(solution)) {
    if (!solution)
        return undefined;
    if (!solution.approval)
        return 'missing';
    return solution.approval.plan_hash === hash ? 'current' : 'stale';
}
/** Tasks are running or about to: the report is a progress report, not a verdict. */
function isInProgress(view) {
    const { count, report } = view;
    return count.running > 0 || report.execution?.status === 'running' || report.status === 'queued' || report.status === 'executing';
}
/** Finished for good: nothing left to do or to look at. Failed tasks are not finished, they wait for a retry. */
function isFinished(state) {
    return state === 'converged' || state === 'unproven' || state === 'skipped';
}
function taskConverged(result) {
    return result.status === 'completed' && !result.convergence_verified.some((c) => c.verdict === 'fail');
}
function taskViews(tasks, report, analysis) {
    const waveOf = new Map((analysis?.dag?.waves ?? []).flatMap((wave, i) => wave.map((id) => [id, i + 1])));
    const running = new Set(report.running ?? []);
    const byId = new Map(tasks.map((t) => [t.id, t]));
    const recorded = report.execution?.tasks ?? {};
    const resultOf = (id) => (Object.hasOwn(recorded, id) ? recorded[id] : undefined);
    const states = new Map();
    // Dependencies first, so that a task behind a blocked task is blocked too.
    const order = [...new Set([...(analysis?.dag?.order ?? []), ...tasks.map((t) => t.id)])];
    for (const id of order) {
        const task = byId.get(id);
        if (!task)
            continue;
        const result = resultOf(id);
        const blocked = task.depends_on.some((dep) => states.get(dep) === 'failed' || states.get(dep) === 'blocked');
        states.set(id, taskState(result, running.has(id), blocked));
    }
    return tasks.map((task) => {
        const result = resultOf(task.id);
        return {
            task,
            wave: waveOf.get(task.id),
            state: states.get(task.id),
            result,
            checks: taskChecks(task, result),
        };
    });
}
function taskState(result, running, dependencyFailed) {
    if (running)
        return 'running';
    if (result?.status === 'skipped')
        return 'skipped';
    if (result)
        return !taskConverged(result) ? 'failed' : (0,evidence_words/* provedBy */.s4)(result) ? 'converged' : 'unproven';
    return dependencyFailed ? 'blocked' : 'pending';
}
/** The plan's criteria and verification entries with their recorded verdicts (pending when none), then anything else recorded. */
function taskChecks(task, result) {
    return withLinkedVerdicts(task, mergeChecks(plannedChecks(task), result?.convergence_verified ?? []));
}
/** A criterion linked to a command (`criteria_commands`) is checked by it: its verdict is the command's. */
function withLinkedVerdicts(task, checks) {
    if (!task.convergence.criteria_commands?.length)
        return checks;
    const commands = new Map(checks.filter((c) => c.kind === 'command').map((c) => [c.text, c]));
    return checks.map((c) => {
        const command = c.kind === 'criterion' ? (0,verification/* linkedCommand */.DT)(task, c.text) : undefined;
        const check = command === undefined ? undefined : commands.get(command);
        return check ? { kind: 'criterion', text: c.text, verdict: check.verdict, verified_by: 'command' } : c;
    });
}
/** What the plan says will verify the task, all pending. */
function plannedChecks(task) {
    const criteria = task.convergence.criteria.map((text) => ({ kind: 'criterion', text, verdict: 'pending', verified_by: 'agent' }));
    const entries = (0,verification/* verificationEntries */.Ym)(task).map((entry) => entry.kind === 'command'
        ? { kind: 'command', text: entry.command, verdict: 'pending', verified_by: 'command' }
        : { kind: 'criterion', text: entry.text, verdict: 'pending', verified_by: 'manual' });
    return [...criteria, ...entries];
}
function mergeChecks(planned, recorded) {
    const key = (c) => `${c.kind}\u0000${c.text.trim()}`;
    const recordedByKey = new Map(recorded.map((c) => [key(c), c]));
    const merged = planned.map((c) => recordedByKey.get(key(c)) ?? c);
    const plannedKeys = new Set(planned.map(key));
    return [...merged, ...recorded.filter((c) => !plannedKeys.has(key(c)))];
}
/** The criteria of the plan that no command checks: a person does, whatever an agent reported about them. */
function criteriaForAPerson(view) {
    return view.tasks.reduce((sum, t) => sum + t.checks.filter((c) => c.kind === 'criterion' && c.verified_by !== 'command').length, 0);
}


/***/ }),

/***/ 8278:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   _Y: () => (/* binding */ readStateJson),
/* harmony export */   j2: () => (/* binding */ parseStateJson),
/* harmony export */   z6: () => (/* binding */ CorruptStateError)
/* harmony export */ });
/** A state file that exists but does not match its schema: reported, never overwritten blindly. */
class CorruptStateError extends Error {
    path;
    constructor(path, detail) {
        super(`State file ${path} is not valid: ${detail}. Fix or delete it on the state branch, then run again.`);
        this.path = path;
        this.name = 'CorruptStateError';
    }
}
/** Reads and validates a JSON state file; undefined when it does not exist. */
async function readStateJson(snapshot, path, schema) {
    const text = await snapshot.read(path);
    if (text === undefined)
        return undefined;
    const parsed = parseStateJson(text, schema);
    if (!parsed.ok)
        throw new CorruptStateError(path, parsed.detail);
    return parsed.value;
}
/**
 * A state file's text parsed and validated against its schema, or what is wrong with it: not JSON (the parser's
 * message), or not of its schema (the first issue's path and message). `readStateJson` throws it; the board, which
 * reads tolerantly, shows it.
 */
function parseStateJson(text, schema) {
    let value;
    try {
        value = JSON.parse(text);
    }
    catch (error) {
        return { ok: false, wrong: 'json', detail: error.message };
    }
    const result = schema.safeParse(value);
    if (result.success)
        return { ok: true, value: result.data };
    const issue = result.error.issues[0];
    return { ok: false, wrong: 'schema', detail: `${issue.path.join('.') || '(root)'}: ${issue.message}` };
}


/***/ })

};
