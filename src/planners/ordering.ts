/**
 * Order that an issue states in words rather than task ids: an item that begins "Then …" comes after
 * the one before it, "once the rest is done" after all the others, "after the migration" after the
 * task about the migration. In the languages issue templates are written in.
 */

const AFTER_PREVIOUS = [
  /^(?:and\s+)?(?:then|after that|afterwards|next|finally|lastly|last,|once (?:that|this|it)(?: is|'s) (?:done|in place|merged))\b/i,
  /^(?:然后|之后|接着|随后|最后|再|完成后)/,
  /^(?:その後|次に|最後に|それから|完了後|続いて)/,
  /^(?:depois(?: disso)?|em seguida|por fim|finalmente|ent[ãa]o|ap[óo]s isso)\b/i,
  /^(?:luego|despu[ée]s(?: de eso)?|a continuaci[óo]n|finalmente|por [úu]ltimo)\b/i,
  /^(?:danach|dann|anschlie[ßs]end|zum schluss|schlie[ßs]lich)\b/i,
]

const AFTER_ALL = [
  /\b(?:once|after|when) (?:the rest|everything(?: else)?|all (?:the )?(?:other |above |previous |remaining )?(?:tasks|items|steps|changes|work)(?: above)?)\b/i,
  /\b(?:at the end|as the (?:last|final) step|last of all)\b/i,
  // A closing check of the list: it comes after everything it checks.
  /\b(?:confirm|check|verify|make sure|ensure) (?:that )?all (?:the )?(?:tests|checks) (?:pass|are green)\b|\brun the (?:full |whole )?(?:testing checklist|test suite)\b/i,
  /(?:其他|其余|其它|以上|所有|全部)(?:的)?(?:任务|步骤|工作|改动)?(?:都)?(?:完成|做完)(?:之)?后|最后一步/,
  /(?:他の|その他の|上記の|すべての|全ての)(?:タスク|作業|項目|変更)?(?:が|の)?(?:完了|終わっ)|最後のステップ|上(?:記)?の.{0,6}が(?:入っ|完了し|終わっ|揃っ)た(?:後|あと)/,
  /depois de tudo|quando (?:todo o resto|tudo(?: o mais)?) (?:estiver|for)|ap[óo]s (?:as demais|todas as outras|o resto)|no final\b/i,
  /despu[ée]s de todo|cuando (?:todo lo dem[áa]s|el resto) (?:est[ée]|se)|al final\b/i,
]

const COUNT_WORDS: Record<string, number> = { two: 2, three: 3, four: 4, both: 2, ambos: 2, ambas: 2, beide: 2, 两: 2, 二: 2, 三: 3, 四: 4 }
/** "the two items above", "上面两个", "上の 2 つ": that many items before it. */
const PREVIOUS_COUNT = [
  /^\s*(both|ambos|ambas|beide)\b/i,
  /\b(?:the\s+)?(two|three|four|\d+)\s+(?:items?|tasks?|steps?)\s+(?:above|before (?:it|this))/i,
  /上面(?:的)?(两|三|四|\d+)\s*(?:个|项|步)/,
  /上の\s*(二|三|四|\d+)\s*つ/,
]

/** How many of the items right before it an item says it comes after ("depends on the two items above"). */
export function previousCount(text: string): number | undefined {
  for (const pattern of PREVIOUS_COUNT) {
    const word = pattern.exec(text)?.[1]
    if (word) return COUNT_WORDS[word.toLowerCase()] ?? Number(word)
  }
  return undefined
}

/** What an item says about the items before it: `previous` (the one before), `all` (every one before). */
export function sequenceWord(text: string): 'previous' | 'all' | undefined {
  const line = text.trim()
  if (previousCount(line) === undefined && AFTER_ALL.some((p) => p.test(line))) return 'all'
  if (AFTER_PREVIOUS.some((p) => p.test(line))) return 'previous'
  return undefined
}

const DONE = String.raw`(?:done|complete[d]?|finished|merged|in place|ready|landed|shipped|available|run|ran|applied|deployed|gone|removed|agreed|approved)`
/** Phrases that name a prerequisite by what it is about; group 1 is the name. */
const PREREQUISITE_PHRASES = [
  new RegExp(String.raw`\b(?:once|when|after)\s+(?:the\s+|our\s+)?(.{3,60}?)\s+(?:is|are|has been|have been|has|have|gets)\s+${DONE}\b`, 'i'),
  /^(?:after|once)\s+(?:the\s+|our\s+)?([^,.;:]{3,50}?)\s*[,:]/i,
  /[(（]\s*(?:after|once|depends on|requires|needs)\s+(?:the\s+)?([^)）]{3,50}?)\s*[)）]/i,
  /\b(?:once|when|after)\s+(?:the\s+)?(\S.{1,58}?)\s+(?:exists?|lands?|is in)\b/i,
  /\b(?:depends on|requires|needs|blocked by|builds on)\s+(?:the\s+)?([^,.;:()]{3,50}?)(?:\s+(?:first|to be done))?\s*(?:[,.;:()]|$)/i,
  /(?:在|等)?([^，。、；（）]{2,20}?)(?:完成|结束|合并|就绪|上线)(?:之)?后/,
  /依赖(?:于)?([^，。、；（）]{2,20})/,
  /([^、。（）]{2,20}?)(?:が完了し(?:た後|てから)|の完了後|が終わってから|の後で?|のあと)/,
  /\b(?:depois|ap[óo]s)\s+(?:d[aoe]s?\s+|que\s+)?(.{3,40}?)(?:\s+(?:estiver|for|estar)\s+(?:pront[oa]|conclu[íi]d[oa]|feit[oa]))?\s*(?:[,.;]|$)/i,
  /\bdepende\s+(?:de|d[aoe]s?)\s+(.{3,40}?)\s*(?:[,.;]|$)/i,
  /\b(?:despu[ée]s de(?:l| la| los| las)?|una vez que)\s+(.{3,40}?)\s*(?:[,.;]|$)/i,
  /\bnach(?:dem)?\s+(?:der|dem|den|die|das)?\s*(.{3,40}?)\s*(?:[,.;]|$)/i,
]

/** "depends on step 2", "after step 1", "依赖第 2 步", "1 で作った…": the numbers of the earlier steps of the same list it names. */
const STEP_REFERENCES = [
  /\b(?:depends on|after|once|requires|needs|from|see|uses?)\s+(?:the\s+)?step\s+(\d+)/gi,
  /(?:依赖|依靠|基于|在)\s*第\s*(\d+)\s*步/g,
  /(?:^|[^\d])(\d+)\s*で(?:作っ|作成し|追加し|実装し|用意し)た/g,
  /\b(?:depende d[oa]|ap[óo]s o|depois do)\s+passo\s+(\d+)/gi,
]

export function stepReferences(text: string): number[] {
  return [...new Set(STEP_REFERENCES.flatMap((pattern) => [...text.matchAll(pattern)].map((m) => Number(m[1]))))]
}

/** The names of prerequisites an item's text gives in words ("once the schema change is merged" → "schema change"). */
export function prerequisiteNames(text: string): string[] {
  const names: string[] = []
  for (const pattern of PREREQUISITE_PHRASES) {
    const name = pattern.exec(text)?.[1]?.trim()
    if (name && !/^(?:T\d+|TASK-?\d+|#\d+)$/i.test(name)) names.push(name)
  }
  return names
}

const STOP_WORDS = new Set([
  'the', 'and', 'for', 'with', 'that', 'this', 'from', 'into', 'are', 'was', 'has', 'have', 'been', 'done', 'first', 'all',
  'new', 'our', 'its', 'add', 'update', 'change', 'changes', 'task', 'step', 'work', 'dos', 'das', 'para', 'com', 'que', 'del', 'los', 'las',
])

/** Words of a name that can identify a task: Latin words of 4+ letters (stems), and CJK runs as two-character pieces. */
function keys(text: string): string[] {
  const lower = text.toLowerCase()
  // Crude stems: "docs" is "doc", "migrations" and "migrating" are "migrat".
  const latin = (lower.match(/[\p{Script=Latin}\d]{3,}/gu) ?? []).filter((w) => !STOP_WORDS.has(w)).map((w) => w.replace(/s$/, '').slice(0, 6))
  const cjk = (lower.match(/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]{2,}/gu) ?? []).flatMap((run) =>
    Array.from({ length: run.length - 1 }, (_, i) => run.slice(i, i + 2)),
  )
  return [...new Set([...latin, ...cjk])]
}

/**
 * The earlier item a prerequisite name refers to: the closest one before `index` whose title shares
 * the most keys with the name (at least one). Only earlier items, so words alone never make a cycle.
 */
export function findPrerequisite(name: string, titles: readonly string[], index: number): number | undefined {
  const wanted = keys(name)
  if (!wanted.length) return undefined
  let best: { at: number; shared: number } | undefined
  for (let at = index - 1; at >= 0; at--) {
    const have = new Set(keys(titles[at]!))
    const shared = wanted.filter((k) => have.has(k)).length
    if (shared > 0 && (!best || shared > best.shared)) best = { at, shared }
  }
  return best?.at
}
