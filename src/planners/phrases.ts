import { canonicalTaskId, type FileAction, type TaskAction } from '../model/index.js'
import { trimEndOf } from './text.js'

/** Words in an issue's text that the built-in planner reads: task references, dependencies, verbs, paths. */

const REF = String.raw`(?:TASK-?\d{1,7}|T\d{1,7})\b`
const REF_LIST = String.raw`${REF}(?:\s*(?:,|&|/|\band\b|和|、|及)\s*${REF})*`
const REF_PATTERN = new RegExp(REF, 'g')

/** Canonical ids (`T3`) of every task reference (`T3`, `TASK-003`) in the text, in order, without repeats. */
export function taskRefs(text: string): string[] {
  return [...new Set([...text.matchAll(REF_PATTERN)].map((m) => canonicalTaskId(m[0])!))]
}

const OPEN = String.raw`[\[(（【]`
const CLOSE = String.raw`[\])）】]`
const BRACKETED_LABEL = String.raw`${OPEN}\s*(${REF_LIST})\s*${CLOSE}\s*[:：.\-–—]?\s*`
const STRICT_LABEL = new RegExp(String.raw`^\s*(?:${BRACKETED_LABEL}|(${REF_LIST})\s*[:：.)\-–—]\s*)`)
const LOOSE_LABEL = new RegExp(String.raw`^\s*(?:${BRACKETED_LABEL}|(${REF_LIST})(?:\s*[:：.)\-–—]\s*|\s+|$))`)

/**
 * A leading task label: `T2: …`, `[T2] …`, `（T2）…`, `T1, T3 - …`. Loose labels (task items,
 * headings) may also be followed by a space only (`T2 Add …`) or stand alone (`### T2`); strict
 * ones (criteria) need punctuation or brackets, so "T2 returns 401" is prose.
 */
export function leadingLabel(text: string, mode: 'loose' | 'strict'): { refs: string[]; rest: string } {
  const match = (mode === 'loose' ? LOOSE_LABEL : STRICT_LABEL).exec(text)
  if (!match) return { refs: [], rest: text }
  return { refs: taskRefs((match[1] ?? match[2])!), rest: text.slice(match[0].length) }
}

const DEPENDENCY_WORDS = String.raw`(?:depends?\s+on|dependent\s+on|after|needs|requires|blocked\s+by|依赖于?)`
const DEPENDENCY_TAIL = String.raw`(?:\s+(?:is|are)\s+(?:done|complete|completed|finished|merged))?`
const DEPENDENCY_CORE = String.raw`${DEPENDENCY_WORDS}\s*:?\s*(${REF_LIST})${DEPENDENCY_TAIL}`
// `(?<!\w)` rather than `\b`, which never matches before a Chinese character.
const DEPENDENCY = new RegExp(String.raw`${OPEN}\s*${DEPENDENCY_CORE}\s*${CLOSE}|(?<!\w)${DEPENDENCY_CORE}`, 'gi')

/**
 * Dependency phrases — "depends on T1", "after T2", "(needs T1, T3)", "blocked by T4", "依赖 T1" —
 * and the text without them (and without the separator before each).
 */
export function dependencyPhrases(text: string): { refs: string[]; rest: string } {
  const refs: string[] = []
  let rest = ''
  let end = 0
  for (const match of text.matchAll(DEPENDENCY)) {
    refs.push(...taskRefs((match[1] ?? match[2])!.toUpperCase()))
    rest += trimEndOf(text.slice(end, match.index), ' \t\n,;，；、—–-')
    end = match.index + match[0].length
  }
  return { refs: [...new Set(refs)], rest: rest + text.slice(end) }
}

/** "Risk: high", "优先级：高" and the like are plan metadata, not work, criteria or prose. */
const METADATA_LINE = /^\s*(?:risk|impact|complexity|priority|风险|影响|复杂度|优先级)\s*[:：]/i

export function isMetadataLine(text: string): boolean {
  return METADATA_LINE.test(text)
}

/** A section saying its list is to be done in order makes each item depend on the one before. */
const SEQUENTIAL = /\bin (?:this |that |the given )?order\b|\bsequentially\b|\bin sequence\b|\bone (?:after another|at a time)\b|依次|按顺序|顺序执行/i

export function saysSequential(text: string): boolean {
  return SEQUENTIAL.test(text)
}

const VERBS: Record<string, TaskAction> = {
  create: 'Create', write: 'Create', make: 'Create', scaffold: 'Create', generate: 'Create', new: 'Create', bootstrap: 'Create',
  add: 'Add', introduce: 'Add', include: 'Add', append: 'Add', insert: 'Add', expose: 'Add', export: 'Add',
  modify: 'Modify', change: 'Modify', edit: 'Modify', adjust: 'Modify', tweak: 'Modify', extend: 'Modify',
  replace: 'Modify', wire: 'Modify', convert: 'Modify', switch: 'Modify', use: 'Modify', return: 'Modify', handle: 'Modify',
  fix: 'Fix', repair: 'Fix', resolve: 'Fix', patch: 'Fix', correct: 'Fix', prevent: 'Fix', guard: 'Fix',
  refactor: 'Refactor', rename: 'Refactor', extract: 'Refactor', restructure: 'Refactor', reorganize: 'Refactor',
  reorganise: 'Refactor', split: 'Refactor', move: 'Refactor', simplify: 'Refactor', clean: 'Refactor',
  decouple: 'Refactor', inline: 'Refactor', consolidate: 'Refactor', dedupe: 'Refactor', deduplicate: 'Refactor',
  remove: 'Remove', drop: 'Remove', strip: 'Remove', eliminate: 'Remove', deprecate: 'Remove',
  delete: 'Delete',
  update: 'Update', document: 'Update', upgrade: 'Update', bump: 'Update', revise: 'Update', sync: 'Update',
  improve: 'Update', migrate: 'Update', port: 'Update',
  implement: 'Implement', build: 'Implement', support: 'Implement', enable: 'Implement', allow: 'Implement',
  store: 'Implement', persist: 'Implement', record: 'Implement', merge: 'Implement', show: 'Implement', display: 'Implement',
  render: 'Implement', parse: 'Implement', save: 'Implement', load: 'Implement', cache: 'Implement', emit: 'Implement',
  send: 'Implement', accept: 'Implement', reject: 'Implement', refuse: 'Implement', skip: 'Implement', trim: 'Implement',
  sort: 'Implement', filter: 'Implement', format: 'Implement', translate: 'Implement', ensure: 'Implement',
  keep: 'Implement', teach: 'Implement', limit: 'Implement', detect: 'Implement', warn: 'Implement',
  configure: 'Configure', set: 'Configure', setup: 'Configure', install: 'Configure', register: 'Configure',
  test: 'Test', cover: 'Test', verify: 'Test', validate: 'Test', check: 'Test', benchmark: 'Test', assert: 'Test',
}

const CHINESE_VERBS: ReadonlyArray<readonly [string, TaskAction]> = [
  ['新建', 'Create'], ['创建', 'Create'], ['编写', 'Create'], ['添加', 'Add'], ['增加', 'Add'], ['新增', 'Add'],
  ['修改', 'Modify'], ['修复', 'Fix'], ['重构', 'Refactor'], ['移除', 'Remove'], ['删除', 'Delete'],
  ['更新', 'Update'], ['实现', 'Implement'], ['配置', 'Configure'], ['测试', 'Test'], ['验证', 'Test'],
]

/** The task action named by the text's first word ("Adds", "adding" and "added" read as Add). */
export function leadingAction(text: string): TaskAction | undefined {
  const trimmed = text.trim()
  const chinese = CHINESE_VERBS.find(([verb]) => trimmed.startsWith(verb))
  if (chinese) return chinese[1]
  const word = /^[A-Za-z]+/.exec(trimmed)?.[0].toLowerCase()
  if (!word) return undefined
  const stems = [word, word.replace(/s$/, ''), word.replace(/es$/, ''), word.replace(/e?d$/, ''), word.replace(/ing$/, ''), word.replace(/ing$/, 'e')]
  for (const stem of stems) if (Object.hasOwn(VERBS, stem)) return VERBS[stem]
  return undefined
}

const KNOWN_EXTENSIONS = new Set([
  'ts', 'tsx', 'mts', 'cts', 'js', 'jsx', 'mjs', 'cjs', 'json', 'jsonc', 'md', 'mdx', 'yml', 'yaml', 'toml', 'ini', 'cfg',
  'env', 'lock', 'txt', 'csv', 'xml', 'html', 'css', 'scss', 'sass', 'less', 'vue', 'svelte', 'astro', 'py', 'pyi', 'rb',
  'go', 'mod', 'rs', 'java', 'kt', 'kts', 'scala', 'swift', 'c', 'h', 'cc', 'cpp', 'hpp', 'cs', 'fs', 'php', 'sh', 'bash',
  'zsh', 'ps1', 'sql', 'graphql', 'gql', 'proto', 'tf', 'gradle', 'properties', 'dart', 'ex', 'exs', 'erl', 'lua', 'r',
  'pl', 'snap', 'svg', 'png', 'jpg', 'gif',
])
const KNOWN_BASENAMES = new Set(['Dockerfile', 'Makefile', 'Rakefile', 'Gemfile', 'Procfile', 'Jenkinsfile', 'LICENSE', 'CODEOWNERS'])
const PATH_CHARACTERS = /^[\w.\-/+~[\]]+$/
const MEDIA_TYPE = /^(?:application|text|image|audio|video|multipart|font)\/[\w.+-]+$/

/**
 * A repository file path named in a code span, with an optional `:line` (`src/auth/token.ts:89`, also a range: `:41-52`, `#L41-L52`).
 * A path has no spaces and either a slash (`src/auth/token.ts`, `bin/cli`) or a known file name
 * (`package.json`, `.gitignore`, `Dockerfile`). Commands (`npm test`), flags (`--force`), calls
 * (`refresh()`), package names (`@scope/pkg`), media types, URLs, absolute paths, paths leaving the
 * repository (`..`) and directories (`src/`) are not.
 */
export function filePath(code: string): { path: string; line?: number } | undefined {
  // A line range is a location too (`a.ts:41-52`, `a.ts#L41-L52`, as an audit's evidence or a link names it): its first line.
  const match = /^(.+?)(?::(\d+)(?::\d+|-\d+)?|#L(\d+)(?:-L?\d+)?)?$/.exec(code.trim())
  if (!match) return undefined
  const path = match[1]!.replace(/^\.\//, '')
  if (!PATH_CHARACTERS.test(path) || path.startsWith('/') || path.startsWith('@') || path.startsWith('-')) return undefined
  if (path.endsWith('/') || path.split('/').includes('..') || MEDIA_TYPE.test(path)) return undefined
  const name = path.slice(path.lastIndexOf('/') + 1)
  if (!/[A-Za-z]/.test(name)) return undefined
  const extension = /\.([A-Za-z0-9]+)$/.exec(name)?.[1]?.toLowerCase()
  const looksLikeFile =
    path.includes('/') || KNOWN_BASENAMES.has(name) || /^\.[\w.-]+$/.test(name) || (extension !== undefined && KNOWN_EXTENSIONS.has(extension))
  if (!looksLikeFile) return undefined
  const line = match[2] ?? match[3]
  return line ? { path, line: Number(line) } : { path }
}

/** A path right after "to", "in", "from", … is a file the task changes, whatever the verb adds or removes. */
const CONTAINER_BEFORE = /(?:\b(?:to|in|into|inside|within|from|of|on|under|for|at)\s+(?:(?:the|a|an|existing|current)\s+)?|[到在于从]\s*)$/i
/** The verb of the clause a path is in: "Create `a.js` and extend `b.js`" extends b.js. */
const CLAUSE_VERB = /(?:^|[,;，；]|\band\b|\bthen\b)\s*([A-Za-z]+)\s+(?:(?:the|a|an|new)\s+)?$/i

/**
 * How a task treats a file it names: after "to", "in", "from"… (or 到/在/于/从) it modifies it;
 * otherwise the verb of its clause, else the task's action, decides: Create/Add → create,
 * Delete/Remove → delete, anything else → modify. So "Add a route to `src/server.js`" and
 * "Remove the flag from `src/cli.js`" modify, "Delete `src/old.js`" deletes.
 */
export function fileActionFor(action: TaskAction, textBefore: string): FileAction {
  const before = textBefore.slice(-60)
  if (CONTAINER_BEFORE.test(before)) return 'modify'
  const clauseVerb = CLAUSE_VERB.exec(before)?.[1]
  const verb = (clauseVerb && leadingAction(clauseVerb)) || action
  if (verb === 'Create' || verb === 'Add') return 'create'
  if (verb === 'Delete' || verb === 'Remove') return 'delete'
  return 'modify'
}
