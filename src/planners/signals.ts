import { PRIORITIES, type FileChange, type Level, type Priority } from '../model/index.js'

/** Priority, strategy and risk/impact/complexity, from the issue's labels, explicit lines and touched paths. */

/** Splits `priority: high`, `priority/high`, `type::bug` into a lower-case prefix and value. */
function splitLabel(label: string): { prefix: string; value: string } {
  const parts = label.toLowerCase().split(/[:/]+/).map((p) => p.trim())
  return parts.length > 1 ? { prefix: parts[0]!, value: parts[parts.length - 1]! } : { prefix: '', value: parts[0]! }
}

const PRIORITY_WORDS: Record<string, Priority> = {
  p0: 'critical', critical: 'critical', urgent: 'critical', blocker: 'critical',
  p1: 'high', high: 'high', p2: 'medium', medium: 'medium', normal: 'medium', p3: 'low', p4: 'low', low: 'low', minor: 'low',
}
/** Bare words that name a priority without a `priority:` prefix; `high` alone could mean anything. */
const BARE_PRIORITY_LABELS = new Set(['p0', 'p1', 'p2', 'p3', 'p4', 'critical', 'urgent', 'blocker'])
/** Labels that make an issue high priority when no label states a priority. */
const URGENT_KINDS = new Set(['security', 'regression'])

/**
 * From labels first (`priority: high`, `priority/high`, `P1`, `critical`; the most urgent wins;
 * else `security` or `regression` → high), then a `Priority: high` line in the body, else medium.
 */
export function issuePriority(labels: readonly string[], stated: Priority | undefined): { priority: Priority; source: string } {
  const fromLabels = labels.flatMap((label) => {
    const { prefix, value } = splitLabel(label)
    const named = prefix === 'priority' || prefix === 'prio' || (!prefix && BARE_PRIORITY_LABELS.has(value)) ? PRIORITY_WORDS[value] : undefined
    return named ? [{ priority: named, label }] : []
  })
  if (fromLabels.length) {
    const top = fromLabels.reduce((a, b) => (PRIORITIES.indexOf(b.priority) < PRIORITIES.indexOf(a.priority) ? b : a))
    return { priority: top.priority, source: `label "${top.label}"` }
  }
  const urgent = labels.find((l) => URGENT_KINDS.has(splitLabel(l).value))
  if (urgent) return { priority: 'high', source: `label "${urgent}"` }
  if (stated) return { priority: stated, source: 'the issue text' }
  return { priority: 'medium', source: 'default: no priority label' }
}

const STRATEGY_WORDS: Record<string, string> = {
  bug: 'bugfix', bugfix: 'bugfix', fix: 'bugfix', defect: 'bugfix', regression: 'bugfix',
  // A slow path or a vulnerability is a defect of what exists: fixed, not added.
  performance: 'bugfix', perf: 'bugfix', security: 'bugfix', vulnerability: 'bugfix',
  refactor: 'refactor', refactoring: 'refactor', 'tech-debt': 'refactor', 'tech debt': 'refactor', cleanup: 'refactor',
  enhancement: 'feature', feature: 'feature', feat: 'feature', 'feature request': 'feature', 'new feature': 'feature',
  test: 'testing', tests: 'testing', testing: 'testing',
  documentation: 'docs', docs: 'docs', doc: 'docs', 文档: 'docs', ドキュメント: 'docs', documentação: 'docs', documentación: 'docs',
  chore: 'chore', maintenance: 'chore', ci: 'chore', dependencies: 'chore',
}

/** `bug` → bugfix, `refactor` → refactor, `enhancement`/`feature` → feature, `testing` → testing; first match. */
export function labelStrategy(labels: readonly string[]): string | undefined {
  for (const label of labels) {
    const strategy = STRATEGY_WORDS[splitLabel(label).value]
    if (strategy) return strategy
  }
  return undefined
}

export interface StatedLevels {
  risk?: Level
  impact?: Level
  complexity?: Level
  priority?: Priority
}

const STATED_LINE = /^\s*(risk|impact|complexity|priority|风险|影响|复杂度|优先级)\s*[:：]\s*(low|medium|high|critical|低|中|高)(?![A-Za-z])/i
const CHINESE_KEYS: Record<string, keyof StatedLevels> = { 风险: 'risk', 影响: 'impact', 复杂度: 'complexity', 优先级: 'priority' }
const CHINESE_LEVELS: Record<string, Level> = { 低: 'low', 中: 'medium', 高: 'high' }

/** Lines such as `Risk: high`, `**Impact:** low`, `复杂度：中` (the first of each kind counts). */
export function statedLevels(lines: readonly string[]): StatedLevels {
  const stated: StatedLevels = {}
  for (const line of lines) {
    const match = STATED_LINE.exec(line)
    if (!match) continue
    const key = CHINESE_KEYS[match[1]!] ?? (match[1]!.toLowerCase() as keyof StatedLevels)
    const raw = match[2]!.toLowerCase()
    const value: string = CHINESE_LEVELS[raw] ?? raw
    if (stated[key] !== undefined) continue
    if (key === 'priority') stated.priority = value as Priority
    else if (value !== 'critical') stated[key] = value as Level
  }
  return stated
}

const RISKY_LABEL = /security|breaking|migration|data[- ]?loss|\bauth/i
const RISKY_PATH = /(?:^|\/)(?:auth|authentication|security|migrations?|secrets?|crypto|permissions?)(?:\/|\.|$)|^\.github\/workflows\/|(?:^|\/)\.env/i
const CONFIG_PATH = /(?:^|\/)(?:config|settings)(?:\/|\.|$)|(?:^|\/)package\.json$|\.(?:ya?ml|toml|ini)$|(?:^|\/)Dockerfile$|(?:^|\/)tsconfig[\w.-]*\.json$/i

export interface AnalysisInput {
  taskCount: number
  files: readonly FileChange[]
  labels: readonly string[]
  stated: StatedLevels
  /** The issue reports a vulnerability: its fix is never low risk. */
  security?: boolean
  /** The issue's title and body: what it says it changes can raise the risk (see RISKY_CONTENT). */
  content?: string
}

/**
 * What an issue says it changes that makes the change risky whatever files it touches (issue 38): data in
 * production (an SQL `UPDATE`/`DELETE`, a migration, balances, deleting records), customers' money (charges and refunds),
 * authentication and security
 * surfaces, and removing a public API. Each with the words the gate gives as its reason.
 */
const RISKY_CONTENT: Array<[RegExp, string]> = [
  [/\b(?:UPDATE\s+[`"\w.]+\s+SET|DELETE\s+FROM|DROP\s+(?:TABLE|COLUMN)|TRUNCATE\s+(?:TABLE\s+)?\w)|\bSQL\s+`?(?:UPDATE|DELETE)\b|\b(?:production|prod) (?:database|db|data)\b|\bdata (?:migration|repair|fix)\b|\b(?:balances?|ledger)\b[^.\n]{0,40}\b(?:wrong|incorrect|correct|fix|update|recalculat)/i, 'changes data in production'],
  // Money that moved wrongly or must move back: customers' charges and refunds (issue 38, a service desk's incident).
  [/\b(?:refund(?:s|ed|ing)?|chargebacks?|double[- ]charg\w*|(?:charged|billed|debited) (?:twice|two times|three times|\d+ times)|payments? (?:taken|captured) (?:twice|two times|three times|\d+ times))\b/i, 'moves customers\' money'],
  [/\b(?:authenticat\w*|authori[sz]\w*|oauth|log-?in|sign-?in|sessions? tokens?|passwords?|permissions?|csrf|api keys?|access tokens?)\b/i, 'touches authentication or access'],
  [/\b(?:[Rr]emov(?:e|ing)|[Dd]elet(?:e|ing)|[Dd]rop(?:ping)?|[Tt]ake out)\b(?! \/)[^.\n]{0,50}\b(?:public |v\d+ |old )?(?:API|[Ee]ndpoints?|[Rr]outes?)\b/, 'removes a public API'],
]

export interface InferredAnalysis {
  risk: Level
  impact: Level
  complexity: Level
  /** One reason per level, e.g. `risk high (touches src/auth/token.ts)`. */
  reasons: string[]
  /** Why the risk is high, for the gate to say ("changes data in production: \"UPDATE fees SET\""). */
  riskReason?: string
}

/**
 * Stated lines win. Otherwise:
 * - risk: high for a security/breaking/migration/auth label, a security report, or a path under auth, security,
 *   migrations, secrets, `.github/workflows` or `.env`; medium for configuration files or a deleted
 *   file; else low.
 * - impact: by the top-level directories touched (files at the root count as one): ≤1 low, 2–3 medium, ≥4 high.
 * - complexity: ≥6 tasks or ≥10 files high; ≤2 tasks and ≤3 files low; else medium.
 */
export function inferAnalysis({ taskCount, files, labels, stated, security = false, content = '' }: AnalysisInput): InferredAnalysis {
  const paths = [...new Set(files.map((f) => f.path))]
  const reasons: string[] = []
  const pick = (name: 'risk' | 'impact' | 'complexity', inferred: () => [Level, string]): Level => {
    const given = stated[name]
    if (given) {
      reasons.push(`${name} ${given} (stated in the issue)`)
      return given
    }
    const [level, why] = inferred()
    reasons.push(`${name} ${level} (${why})`)
    return level
  }
  const risk = pick('risk', () => {
    const label = labels.find((l) => RISKY_LABEL.test(l))
    if (label) return ['high', `label "${label}"`]
    if (security) return ['high', 'a security report']
    for (const [pattern, why] of RISKY_CONTENT) {
      const said = pattern.exec(content)
      if (said) return ['high', `${why}: "${said[0].trim()}"`]
    }
    const risky = paths.find((p) => RISKY_PATH.test(p))
    if (risky) return ['high', `touches ${risky}`]
    const config = paths.find((p) => CONFIG_PATH.test(p))
    if (config) return ['medium', `touches ${config}`]
    const deleted = files.find((f) => f.action === 'delete')
    if (deleted) return ['medium', `deletes ${deleted.path}`]
    return ['low', 'no risky label or path']
  })
  const impact = pick('impact', () => {
    const roots = [...new Set(paths.map((p) => (p.includes('/') ? `${p.slice(0, p.indexOf('/'))}/` : '(root)')))]
    const level: Level = roots.length >= 4 ? 'high' : roots.length >= 2 ? 'medium' : 'low'
    return [level, roots.length ? `touches ${roots.length} top-level ${roots.length === 1 ? 'entry' : 'entries'}: ${roots.join(', ')}` : 'names no files']
  })
  const riskReason = risk === 'high' ? /^risk high \((.*)\)$/.exec(reasons[0]!)?.[1] : undefined
  const complexity = pick('complexity', () => {
    const level: Level = taskCount >= 6 || paths.length >= 10 ? 'high' : taskCount <= 2 && paths.length <= 3 ? 'low' : 'medium'
    return [level, `${taskCount} task${taskCount === 1 ? '' : 's'}, ${paths.length} file${paths.length === 1 ? '' : 's'}`]
  })
  return { risk, impact, complexity, reasons, ...(riskReason ? { riskReason } : {}) }
}
