import { Lexer } from 'marked'
import { inlineText, type ListItem, type Section } from './markdown.js'
import { filePath, leadingAction } from './phrases.js'
import { headingRole, sectionRole } from './sections.js'
import { isEmptyAnswer, REPRODUCTION_HEADING } from './templates.js'
import { SEVERAL_DEFECTS } from './block-roles.js'
import { squash } from './text.js'

/**
 * A bug report kept whole for the task that fixes it: the steps to reproduce, the first bad commit of a bisect,
 * the top frames of a stack trace that are the repository's files, and the environment. Pure: reads sections.
 */

export interface StackFrame {
  path: string
  /** Missing where the log names only the file (a test runner's `FAILED tests/test_a.py::test_b`). */
  line?: number
}

export interface BugFacts {
  steps: string[]
  /** Lines that name the last good or first bad commit ("The first bad commit is: 9b3f2d1 …"). */
  bisect: string[]
  /** The error line of a stack trace ("TypeError: Cannot read properties of undefined (reading 'x')"). */
  error?: string
  /** Frames in the repository (not dependencies, not the runtime), top first, at most three. */
  frames: StackFrame[]
  /** Lines of the environment / version sections. */
  environment: string[]
  /** What happens instead: the lines of an "Actual behaviour" section, which often name the code at fault. */
  actual: string[]
}

const BISECT_LINE = /\b(?:first bad|last good|bad commit|good commit|introduced (?:in|by)|bisect(?:ed|ing)?\b.*\bcommit)\b|首个坏提交|最初の不良コミット/i
/** An error line, or a runtime's warning line (`Warning: Each child in a list …`) over the frames that say where. */
const ERROR_LINE = /^\s*(?:uncaught\s+)?(?:[A-Z][\w.]*(?:Error|Exception)|panic|Warning:)(?:\b|\s).*$/gm
/**
 * `at fn (path:line:col)`, `at path:line:col`, `in Component (at path:line)` (a UI framework's component stack),
 * `File "path", line n` (Python), `path:line`, `../path(line,col)` (a compiler's diagnostic).
 */
const FRAME = /^\s*(?:(?:at|in)\s+(?:.*?\((?:at\s+)?)?([^()\s]+?):(\d+)(?::\d+)?\)?|File "([^"]+)", line (\d+)|(?:\.\.?\/)*([\w.@/-]+\.\w+)(?::|\()(\d+)\b)/
const ENVIRONMENT_HEADING = /environment|system info|\bversions?\b|platform|operating system|\bos\b|browser|环境|版本|環境|バージョン|ambiente|vers[ãa]o|entorno|umgebung|환경|окружение|операционн|верси[яи]|versione|omgeving|versie|środowisk|wersj/i
/** Headings over what a report shows rather than says: logs, traces, screenshots, and steps however they are titled. */
const SHOWN_HEADING = /\bsteps\b|\blogs?\b|stack ?trace|traceback|screenshot|passos|pasos|日志|截图|ログ|スクリーンショット|로그|스크린샷|(?:^|\s)лог|скриншот/i

/** A context section whose lines a bug report's facts already carry (steps, environment) or that only shows (logs, a picture). */
export function isFactsHeading(heading: string): boolean {
  return REPRODUCTION_HEADING.test(heading) || ENVIRONMENT_HEADING.test(heading) || SHOWN_HEADING.test(heading)
}

const ACTUAL_HEADING = /actual|current (?:behaviou?r|result)|what happen(?:s|ed)|observed|实际|当前行为|実際|現在の(?:動作|挙動)|comportamento atual|resultado (?:atual|obtido)|comportamiento actual|resultado (?:actual|obtenido)|tats[äa]chlich|comportement (?:actuel|observ[ée])|r[ée]sultat (?:obtenu|actuel)|현재 동작|실제|фактическ|comportamento (?:attuale|effettivo)|risultato (?:attuale|effettivo|ottenuto)|huidig (?:gedrag|resultaat)|werkelijk|aktualne|rzeczywist/i
const FRAMES_KEPT = 3
/** A bug report's "Steps" heading: how to reproduce, not a plan. */
export const BARE_STEPS = /^\s*(?:\[\s*)?steps?(?:\s*\])?\s*:?\s*$/i

export function bugFacts(sections: readonly Section[]): BugFacts {
  const lines = (s: Section) =>
    s.blocks.flatMap((b) => (b.kind === 'list' ? b.items.map((i) => squash(i.head.text)) : b.kind === 'paragraph' ? b.text.split('\n').map(squash) : []))
  const heading = (s: Section) => s.headings[s.headings.length - 1] ?? ''
  // Steps under a reproduction heading, or under a bare "Steps" heading of the report; a `Step 2: …` heading is a step itself.
  const stepHeading = (h: string) => /^\s*step\s*\d+\s*[:.)-]\s*\S/i.test(h)
  const steps = sections
    .filter((s) => isStepsSection(s))
    .flatMap((s) => [...(stepHeading(heading(s)) ? [heading(s).replace(/^\s*step\s*\d+\s*[:.)-]\s*/i, '')] : []), ...lines(s)])
    .filter((l) => l && !isEmptyAnswer(l))
  const bisect = sections.flatMap(lines).filter((l) => BISECT_LINE.test(l))
  const environment = sections
    .filter((s) => ENVIRONMENT_HEADING.test(heading(s)) && sectionRole(s) === 'context')
    .flatMap(lines)
    .filter((l) => l && !isEmptyAnswer(l))
  const actual = sections
    .filter((s) => ACTUAL_HEADING.test(heading(s)) && !REPRODUCTION_HEADING.test(heading(s)))
    .flatMap(lines)
    .filter((l) => l && !isEmptyAnswer(l))
  const traces = traceTexts(sections)
  const prose = sections.flatMap((s) => s.blocks.flatMap((b) => (b.kind === 'paragraph' ? [b.plain] : [])))
  // The error line: a Python trace ends with it, other traces start with it.
  const errorOf = (text: string) => {
    const lines = [...text.matchAll(ERROR_LINE)].map((m) => m[0].trim())
    return /most recent call last/i.test(text) ? lines[lines.length - 1] : lines[0]
  }
  const error = traces.length ? [...traces, ...prose].map(errorOf).find(Boolean) : undefined
  // Python prints the most recent call last: its top frames are at the end.
  const topFirst = (frames: StackFrame[], trace: string) => (/most recent call last/i.test(trace) ? frames.reverse() : frames)
  const own = traces.flatMap((t) => topFirst(repositoryFrames(t), t))
  // A trace wholly inside an installed package is often filed on that package: its top package's frames are the clue.
  const frames = (own.length ? own : traces.flatMap((t) => topFirst(packageFrames(t), t))).slice(0, FRAMES_KEPT)
  return { steps, bisect, frames, environment, actual, ...(error ? { error } : {}) }
}

/**
 * The texts that hold a trace or a log with locations: code blocks with a frame line, and paragraphs with an error line
 * and a frame line (a bot or a reporter pastes a trace as plain text, its frames indented). A path a mail or a web form
 * wrapped after a `/` is joined again (`at f (/srv/app/src/accounts/` + `formatBalance.ts:23:31)`).
 */
export function traceTexts(sections: readonly Section[]): string[] {
  const hasFrame = (text: string) => text.split('\n').some((l, at, all) => lineLocation(l, all[at - 1]) !== undefined)
  return sections.flatMap((s) =>
    s.blocks.flatMap((b) => {
      const text = b.kind === 'code' ? b.text : b.kind === 'paragraph' ? unwrapPaste(b.text) : ''
      const shown = b.kind === 'code' || new RegExp(ERROR_LINE.source, 'm').test(text) || DIAGNOSTIC.test(text)
      return text && shown && hasFrame(text) ? [text] : []
    }),
  )
}

/**
 * A trace as a web form or a mail leaves it: a path wrapped after a `/` is joined again, and frames run together on one
 * line (` in Grid (at src/a.jsx:64) in Summary (at …)`, ` at f (src/a.ts:3:1) at g …`) are put back one a line.
 */
function unwrapPaste(text: string): string {
  return text
    .replace(/\/[ \t]*\n[ \t]*(?=[\w.-]+\.\w+[:(]\d)/g, '/')
    .replace(/[ \t]+(?=(?:in|at) [^\n()]{1,60}(?:\([^\n()]*\)[^\n()]{0,20})?\((?:at )?[\w.@/-]+\.\w+:\d+(?::\d+)?\))/g, '\n')
}

/** A compiler's or linter's diagnostic line: `src/a.ts(14,5): error TS1139: …`, `src/a.ts:14:5 - error TS2345`, `src/a.py:3: error: …`. */
const DIAGNOSTIC = /^\s*(?:\.\.?\/)*[\w.@/-]+\.\w+(?:\(\d+,\d+\)|:\d+(?::\d+)?)\s*(?:-\s*)?:?\s*(?:error|warning)\b/im

/**
 * A section of steps to reproduce: under a reproduction or bare "Steps" heading, and not under a heading of its own
 * role nested in it (a template's "### Expected Results" under "## Reproduce" is not a step).
 */
function isStepsSection(section: Section): boolean {
  const steps = (h: string) => REPRODUCTION_HEADING.test(h) || BARE_STEPS.test(h)
  const at = section.headings.findIndex(steps)
  return at >= 0 && section.headings.slice(at + 1).every((h) => steps(h) || headingRole(h) === undefined)
}

/**
 * Where a test runner's or a linter's log points, when it is no trace (issue 38, "paths in logs are kept"): a failed
 * test's file (`FAILED tests/test_a.py::test_b - …`, `FAIL src/a.test.ts`, `ERROR tests/b.py`), and a linter's
 * report of a file's path on a line of its own over its `12:5  error  …` lines (the "stylish" format; a path with a folder:
 * a bare `orders.csv` over its problems is the data a tool checked, not a file of the repository).
 */
const FAILED_TEST = /^\s*(?:FAILED|FAIL|ERROR)\s+((?:\.\.?\/)*[\w.@/\\-]+\.\w+)(?:::|\s|$)/
const LINT_FILE = /^\s*((?:[A-Za-z]:)?[\w.@-]*[/\\][\w.@/\\-]+\.\w+)\s*$/
const LINT_PROBLEM = /^\s+(\d+):\d+\s+(?:error|warning)\b/

/** The locations of a log line (`at f (a.ts:3)`, `File "a.py", line 3`, `a.ts:3`, a failed test), given the line before it. */
function lineLocation(line: string, previous: string | undefined): { raw: string; line?: number; log?: true } | undefined {
  const m = FRAME.exec(line)
  const raw = bundledSource(m?.[1] ?? m?.[3] ?? m?.[5])
  if (m && raw) return { raw, line: Number(m[2] ?? m[4] ?? m[6]) }
  const failed = FAILED_TEST.exec(line)
  if (failed) return { raw: failed[1]!, log: true }
  const file = previous === undefined ? undefined : LINT_FILE.exec(previous)?.[1]
  const problem = LINT_PROBLEM.exec(line)
  return file && problem ? { raw: file, line: Number(problem[1]), log: true } : undefined
}

/** The frames of a trace or a log whose path is a relative path of the repository (not node_modules, a URL or `<anonymous>`). */
function repositoryFrames(trace: string): StackFrame[] {
  const lines = trace.split('\n')
  const frames = lines.flatMap((text, at) => {
    const location = lineLocation(text, lines[at - 1])
    const raw = location?.raw
    if (!location || !raw || /node_modules|site-packages|dist-packages|^[a-z]+:\/\/|^<|^internal\/|^node:/i.test(raw)) return []
    // An absolute path of the reporter's machine is read from its first source folder on (/home/me/app/src/a.ts → src/a.ts).
    const relative = raw.startsWith('/') || /^[A-Za-z]:[\\/]/.test(raw) ? /[\\/]((?:src|lib|app|test|tests|packages|server|client)[\\/].*)$/.exec(raw)?.[1]?.replaceAll('\\', '/') : raw
    const found = relative ? filePath(relative.replace(/^\.\//, '')) : undefined
    return found ? [{ path: found.path, ...(location.line !== undefined ? { line: location.line } : {}), log: location.log === true }] : []
  })
  // A log names a file once per problem or test: each file once, at its first (a trace's frames stay as they are).
  return frames.filter((f, at) => !f.log || frames.findIndex((g) => g.path === f.path) === at).map(({ path, line }) => ({ path, ...(line !== undefined ? { line } : {}) }))
}

/**
 * The source path behind a bundler's or a dev server's URL, as a browser's trace names it: `webpack://app/./src/a.ts`,
 * `webpack-internal:///./src/a.tsx`, `http://localhost:5173/src/a.ts` → `src/a.ts`. Other URLs stay URLs.
 */
function bundledSource(raw: string | undefined): string | undefined {
  const bundled = raw && /^(?:webpack(?:-internal)?:\/\/\/?[^/]*\/|https?:\/\/(?:localhost|127\.0\.0\.1)(?::\d+)?\/)(?:\.\/)?(.+?)(?:\?[^:]*)?$/i.exec(raw)
  return bundled ? bundled[1] : raw
}

/**
 * The frames of the installed package at the top of a trace (`…/site-packages/plantwatch/report.py` →
 * `plantwatch/report.py`, `…/node_modules/taskr/src/runner.ts` → `src/runner.ts`), for a trace with no frame of
 * the repository itself: the report may be filed on that package.
 */
function packageFrames(trace: string): StackFrame[] {
  const frames = trace.split('\n').flatMap((line) => {
    const m = FRAME.exec(line)
    const raw = (m?.[1] ?? m?.[3] ?? m?.[5])?.replaceAll('\\', '/')
    const inside = raw && /(?:site-packages|dist-packages)\/(([\w.-]+)\/.+)$|node_modules\/((?:@[\w.-]+\/)?[\w.-]+)\/(.+)$/.exec(raw)
    if (!m || !inside) return []
    const [pkg, path] = inside[1] ? [inside[2]!, inside[1]] : [inside[3]!, inside[4]!]
    const found = filePath(path)
    return found && !/^dist\//.test(path) ? [{ pkg, path: found.path, line: Number(m[2] ?? m[4] ?? m[6]) }] : []
  })
  // Python prints the top frame last, Node first.
  const top = /most recent call last/i.test(trace) ? frames[frames.length - 1] : frames[0]
  return frames.filter((f) => f.pkg === top?.pkg).map(({ path, line }) => ({ path, line }))
}

/** The parts of the description a fix task carries beyond the problem's first paragraph. */
export function bugDescription(facts: BugFacts): string[] {
  const numbered = (list: readonly string[]) => list.map((step, i) => `${i + 1}. ${step.replace(/^\d+[.)]\s*/, '')}`).join('\n')
  return [
    ...(facts.steps.length ? [`Steps to reproduce:\n${numbered(facts.steps)}`] : []),
    ...(facts.actual.length ? [`What happens instead: ${facts.actual.join(' ')}`] : []),
    ...(facts.bisect.length ? [`Bisect:\n${facts.bisect.map((l) => `- ${l}`).join('\n')}`] : []),
    ...(facts.error ? [`Error: ${facts.error}${facts.frames.length ? `\n${framesText(facts.frames)}` : ''}`] : []),
    // A log with no error line still names where it happened: its paths are kept (issue 38).
    ...(!facts.error && facts.frames.length ? [framesText(facts.frames)] : []),
    ...(facts.environment.length ? [`Environment: ${facts.environment.join('; ')}`] : []),
  ]
}

const framesText = (frames: readonly StackFrame[]) => `Top frames in the repository:\n${frames.map((f) => `- ${frameText(f)}`).join('\n')}`

/** `path:line`, or the path alone where the log gives no line. */
export const frameText = (frame: StackFrame) => (frame.line === undefined ? frame.path : `${frame.path}:${frame.line}`)

/** Words that say something goes wrong ("loses focus", "does not apply", "leaves its tasks", "shows the wrong date"). */
const DEFECT =
  /\b(?:not|no longer|never|instead|loses?|leaves?|breaks?|broken|crash(?:es)?|fails?|wrong|missing|disappears?|overlaps?|freezes?|hangs?|stuck|ignores?|duplicates?|errors?|cut off|off by|empty|lacks?|lacking)\b|\b(?:has|have|had) no\b|n'?t\b|\bne\b.{1,40}\bpas\b|\bn['’]\S+ (?:pas|que|plus)\b|\bdoublon|\bnicht\b|\bkein|\bno (?:funciona|se|hay|aparece)|\bnão\b|\bне\b|しない|できない|されない|되지 않|안 됨|不(?:能|会|显示|工作)|没有/i

/** Words that start a step to reproduce ("Open …", "Click …"), not a defect. */
const STEP_VERB = /^(?:open|click|go|navigate|press|type|select|enter|log ?in|sign ?in|visit|scroll|run|choose|tap|wait|see|observe|then|start|create|add|set|use|install|launch|call|send|upload|try)\b/i

/**
 * A list that names several defects, one an item ("1. The search box loses focus …", "2. Dark mode does not
 * apply …"), as reporters write several bugs under one title: two or more sentences, none a step or an order.
 */
export function isDefectList(items: readonly ListItem[]): boolean {
  const heads = items.map((i) => squash(i.head.plain))
  // "Deleting a list leaves …" starts with a gerund, the subject of a defect, not an order.
  const order = (h: string) => STEP_VERB.test(h) || (leadingAction(h) !== undefined && !/^\w+ing\b/i.test(h))
  return heads.length >= 2 && heads.every((h) => h.split(' ').length >= 4 && !order(h) && DEFECT.test(h))
}

/**
 * Several defects reported one paragraph each (a tester's running list): a paragraph that says what goes wrong or
 * what should happen and names its file, or ends with ":" over the stack trace that does. Two or more, each naming a
 * file no earlier one named, are one fix each; the trace's top frame in the repository becomes the item's file
 * (`path:line`), so the log's path is kept. Fewer than two: the report is one defect.
 */
export function defectParagraphs(sections: readonly Section[]): ListItem[] {
  const items: ListItem[] = []
  const named = new Set<string>()
  for (const section of sections) {
    if (sectionRole(section) !== undefined && sectionRole(section) !== 'description') continue
    const heading = section.headings[section.headings.length - 1]
    // "A few things I noticed:" over one paragraph a defect: each is a fix, naming a file or not (issue 38). The opener
    // may be the section's heading (a line ending with ":" over its text is read as one) or a paragraph of it.
    const announced = announcedDefects(section, heading)
    if (announced.length >= 2) {
      items.push(...announced.map((head) => ({ head, more: [], checked: undefined, children: [], code: [] })))
      continue
    }
    // "The minigame crashes when the line snaps:" over its trace is read as a heading: its section is that defect.
    const over = heading && heading.split(/\s+/).length >= 4 && DEFECT.test(heading) ? [{ kind: 'paragraph' as const, ...inlineText(Lexer.lexInline(`${heading}:`)) }] : []
    ;[...over, ...section.blocks].forEach((block, at, blocks) => {
      if (block.kind !== 'paragraph' || !(DEFECT.test(block.plain) || /\bshould\b/i.test(block.plain))) return
      const next = blocks[at + 1]
      const frames = /[:：]\s*$/.test(block.plain) && next?.kind === 'code' ? repositoryFrames(next.text) : []
      const files = [...block.codeSpans.flatMap((c) => filePath(c.code)?.path ?? []), ...frames.slice(0, 1).map((f) => f.path)]
      // A trace through a file an earlier defect names is that defect's evidence, not another defect.
      if (!files.length || [...files, ...frames.map((f) => f.path)].some((f) => named.has(f))) return
      for (const f of files) named.add(f)
      const where = frames.slice(0, 1).map((f) => inlineText(Lexer.lexInline(`At \`${frameText(f)}\``)))
      items.push({ head: block, more: where, checked: undefined, children: where.map((head) => ({ head, more: [], checked: undefined, children: [], code: [] })), code: [] })
    })
  }
  return items.length >= 2 ? items : []
}

/** The paragraphs that say what goes wrong after the section's opener of a report of several ("A few things I noticed:"). */
function announcedDefects(section: Section, heading: string | undefined): Array<Extract<Section['blocks'][number], { kind: 'paragraph' }>> {
  const opener = heading && SEVERAL_DEFECTS.test(heading) ? -1 : section.blocks.findIndex((b) => b.kind === 'paragraph' && /[:：]\s*$/.test(b.plain) && SEVERAL_DEFECTS.test(b.plain))
  if (opener < 0 && !(heading && SEVERAL_DEFECTS.test(heading))) return []
  return section.blocks.slice(opener + 1).flatMap((b) => (b.kind === 'paragraph' && DEFECT.test(b.plain) ? [b] : []))
}

const SECURITY =
  /\b(?:xss|cross[- ]site (?:scripting|request forgery)|csrf|ssrf|sql injections?|(?:command|code|html|script) injection|remote code execution|rce|path traversal|directory traversal|privilege escalation|open redirect|vulnerabilit(?:y|ies)|security (?:issue|flaw|hole|bug)|exploit|cve-\d{4}-\d+|ghsa(?:-[23456789cfghjmpqrvwx]{4}){3}|security advisor(?:y|ies))\b|漏洞|脆弱性|취약점|уязвимост|vulnerabilidade|vulnerabilidad|sicherheitslücke/i

/** A security report: its title, labels or text name a vulnerability. It is a fix whose risk is at least medium. */
export function isSecurityReport(title: string, labels: readonly string[], body: string): boolean {
  return SECURITY.test(title) || labels.some((l) => /security|vulnerab/i.test(l)) || SECURITY.test(body)
}
