import type { Section } from './markdown.js'
import { statesDefect } from './block-roles.js'
import { sectionRole } from './sections.js'
import { leadingWords } from './text.js'
import type { IssueDocument } from './types.js'

/**
 * What issue templates and issue forms put into an issue that is not work: the reporter's
 * confirmations ("I have searched the existing issues"), "type of issue" choices, unanswered form
 * fields (`_No response_`), and the signs that the issue is a bug report. In the languages the
 * templates are written in.
 */

const CONFIRMATIONS: readonly RegExp[] = [
  // English: a first-person statement about the reporter (what they did, use, agree to); work is imperative.
  // "We …" is often work ("We need a migration"), so only its confirming verbs count.
  /^i(?:'m|'ve|'d)?\s/i,
  /^we\s*(?:have|'ve|confirm|agree|searched|checked|read|verified|made sure|already|are (?:on|using|running))\b/i,
  /^(?:this|the|my) (?:issue|bug|request|problem|report|question)\b/i,
  /^(?:yes|yes,|sim|s[íi]|はい|是的|对|예)[,，、.\s]/i,
  /^(?:not a duplicate|(?:it is|it's) not a duplicate|no duplicates?|searched|read the (?:docs|documentation|faq|contributing))/i,
  /^(?:i|we) (?:am|'m|are) (?:on|using|running) the (?:latest|newest|most recent)/i,
  // Chinese, Japanese, Korean: the same statements.
  /^(?:我|我们)(?:已|已经|确认|同意|搜索|阅读|查看|检查|理解|使用|保证)|^已(?:搜索|阅读|确认|检查|查看)|^(?:确认|同意)/,
  /(?:しました|しています|確認済み|同意します|理解しています|読みました|検索しました|確認しました)[。.!！]?$|^(?:私は|既に|すでに)/,
  /(?:했습니다|확인했습니다|동의합니다|읽었습니다)[.。]?$/,
  // Portuguese, Spanish, German, French.
  /^(?:eu\s+)?(?:j[áa]\s+)?(?:li|pesquisei|procurei|verifiquei|confirmo|concordo|entendo|testei|busquei|estou usando|estou na)\b/i,
  /^(?:a|esta|essa) issue (?:possui|tem|n[ãa]o|j[áa]|est[áa])\b/i,
  /^(?:ya\s+)?(?:he|hemos)\s+(?:buscado|le[íi]do|revisado|verificado|comprobado)|^(?:confirmo|acepto|estoy usando)\b/i,
  /^ich\s+(?:habe|bin|best[äa]tige|stimme|verwende)\b/i,
  /^(?:j'ai|je confirme|j'accepte)\b/i,
]

/**
 * A template's prompt left in the issue, asking the reporter to write something if they can ("細かいタスクに分解できている
 * なら書き出す", "If you have split it into subtasks, list them here"): it says what to write, not what to change.
 */
const TEMPLATE_PROMPT =
  /^if (?:you|there)\b.{0,60}\b(?:list|write|add|describe|note|fill)\b.{0,20}\b(?:them|it|here|below)\b|(?:なら|があれば|れば)(?:ここに)?(?:書き出す|書く|記入する|記載する|列挙する)[。.]?$|^如果.{0,30}(?:请)?(?:列出|写出|填写)|^(?:falls|wenn) .{0,50}(?:hier )?(?:auflisten|aufschreiben|eintragen)\b|^si .{0,50}\b(?:listez|[ée]crivez|indiquez|enumera|escribe|describe)\b|^se .{0,50}\b(?:liste|escreva|descreva)\b|^(?:если|при наличии) .{0,50}(?:перечисл|опиш|напиш)|(?:있다면|있으면) .{0,30}(?:적어|작성)/i

export function isTemplatePrompt(text: string): boolean {
  return TEMPLATE_PROMPT.test(leadingWords(text))
}

/** A "type of issue" choice: a checkbox that names a kind of report, not work. */
const ISSUE_KIND_CHOICE =
  /^(?:bug(?: report| fix)?|feature(?: request)?|enhancement|documentation(?: (?:update|change))?|docs|question|other|breaking change|performance(?: issue)?|security(?: issue)?|refactor(?:ing)?|new feature|改进|缺陷|新功能|文档|其他|问题|バグ|機能要望|ドキュメント|その他|erro|melhoria|nova funcionalidade|documenta[çc][ãa]o|outro|error|mejora|otro)\.?$/i

/** A checkbox the reporter ticks to confirm something ("I have searched the existing issues"): never a task. */
export function isConfirmation(text: string): boolean {
  const line = leadingWords(text)
  return CONFIRMATIONS.some((pattern) => pattern.test(line))
}

/** A checkbox that names a kind of report ("Bug report", "Feature request", "Other"): a choice when its list holds two or more. */
export function isKindChoice(text: string): boolean {
  return ISSUE_KIND_CHOICE.test(text.trim())
}

/** An issue-form field left empty (`_No response_`) or answered with nothing. */
export function isEmptyAnswer(text: string): boolean {
  return /^(?:_?no response_?|n\/?a|none|nothing|-+|无|暂无|なし|特になし|nenhum[a]?|ninguno|keine)\.?$/i.test(text.trim())
}

/**
 * A line that states the expected result inside other text: "Expected: 404", "**Expected behavior:**
 * the list is sorted", "期望结果：…", "期待される動作：…", "Esperado: …". Returns what follows the label.
 */
const EXPECTED_LINE =
  /^\s*(?:(?:the\s+)?expected(?: (?:behaviou?r|result|outcome|output))?|期望(?:结果|行为)?|预期(?:结果|行为)?|期待(?:される)?(?:動作|結果|挙動|値)?|esperad[oa]|resultado esperado|comportamento esperado|comportamiento esperado|erwartet(?:es (?:verhalten|ergebnis))?|예상(?: 결과| 동작)?|ожидаем(?:ый|ое) (?:результат|поведение)|r[ée]sultat attendu|comportement attendu|risultato atteso|comportamento atteso|verwacht(?: (?:gedrag|resultaat))?|oczekiwan(?:e|y) (?:zachowanie|wynik)|target|goal|budget|slo)\s*[:：]\s*(.+)$/i

export function expectedStatement(line: string): string | undefined {
  return EXPECTED_LINE.exec(line)?.[1]?.trim() || undefined
}

/**
 * An expected result asked as a question: "Shouldn't the total match the sum on the screen?" (→ "the total should
 * match the sum on the screen"), "Sollte der Rabatt nicht für alle Artikel gelten?", "Ne devrait-il pas …?", "¿No
 * debería …?", "Não deveria …?". English is turned into the statement; the others keep their words, without the mark.
 */
// The subject is "the" and one word ("the total"), or two when the next word is "be"/"have" ("the export button be …").
const SHOULD_NOT_QUESTION = /^(?:but |so |and )?(?:shouldn'?t|should not) (it|this|that|they|these|those|the [\w'-]+(?: [\w'-]+(?= (?:be|have)\b))?|[\w-]+) (.+?)\s*\?$/i
const ASKED_EXPECTATION = /\bsollten? (?:\w+ ){1,4}nicht\b.*\?$|\bne devrai(?:t|ent)-(?:il|elle|ils|elles|on) pas\b.*\?$|^¿?no deber[íi]a\b.*\?$|^n[ãa]o deveria\b.*\?$|(?:べきでは(?:ない|ありません)|はずでは(?:ない|ありません))(?:か|でしょうか)[？?]$|不(?:应该|是应该)[^？?]*[吗吧][？?]$/i

/** "Isn't the theme supposed to persist across restarts?", "Wasn't it meant to …?" → "the theme should persist across restarts". */
const SUPPOSED_QUESTION = /^(?:but |so |and )?(?:isn'?t|aren'?t|wasn'?t|weren'?t|is not|are not) ((?:it|this|that|they|these|those|the [\w'-]+(?: [\w'-]+)?|[\w-]+)) (?:supposed|meant|expected) to (.+?)\s*\?$/i

export function askedExpectation(sentence: string): string | undefined {
  const text = sentence.trim()
  const english = SHOULD_NOT_QUESTION.exec(text) ?? SUPPOSED_QUESTION.exec(text)
  if (english) return `${english[1]} should ${english[2]}`
  return ASKED_EXPECTATION.test(text) ? text.replace(/^¿/, '').replace(/\s*[?？]$/, '') : undefined
}

const BUG_LABEL = /(?:^|[\s:/])(?:bug|defect|regression|crash|erro|performance|perf|security|vulnerability|缺陷|バグ|バグ報告)(?:$|[\s:/])|🐛/i
const FEATURE_LABEL = /(?:^|[\s:/])(?:enhancement|feature|feature request|feat|proposal|rfc)(?:$|[\s:/])/i
/** A title that is an error line ("KeyError: 'x'", "TypeError: …", "Uncaught ReferenceError") or a bracketed bug tag. */
const BUG_TITLE = /^\s*(?:(?:uncaught\s+)?[A-Z]\w*(?:Error|Exception)\b|[[【(（]\s*(?:bug|bug report|defect|regression|バグ|缺陷|错误|erro|fehler)\s*[\]】)）]|(?:bug|fix|hotfix)\s*(?:\([^)]*\))?\s*[:：])/i
const BUG_HEADING = /describe the bug|root cause|根本原因|근본 원인|causa[- ]ra[íi]z|grundursache|cause (?:racine|profonde)|корневая причина|первопричин|bug description|bug report|what happened|what went wrong|问题描述|错误描述|缺陷描述|バグの(?:説明|内容)|不具合|descri[çc][ãa]o do (?:bug|erro|problema)|descripci[óo]n del (?:error|bug|problema)|fehlerbeschreibung|버그 설명|описание (?:ошибки|бага|проблемы)|description du (?:bug|probl[èe]me)|descrizione del (?:bug|problema|difetto)|beschrijving van (?:de|het) (?:bug|fout|probleem)|opis (?:błędu|problemu)/i

/** A heading over the steps to reproduce a bug ("To Reproduce", 复现步骤, 再現手順, Passos para reproduzir …). */
export const REPRODUCTION_HEADING = /reproduc|\brepro\b|attack vector|proof of concept|\bpoc\b|复现|重现|再現|reproduzir|reproducir|reproduzier|재현|воспроизв|шаги|riprodu|stappen om|kroki do|odtworz/i

/** Words that say something is broken, in a title or a short report. */
const BROKEN =
  /\b(?:crash(?:es|ed|ing)?|broken|does(?:n't| not) work|not working|fails?|failing|exception|regression|bug)\b|出问题|有问题|报错|崩溃|闪退|无法|不能用|不工作|バグ|エラー|落ちる|動かない|不具合|\bn[ãa]o funciona|\bquebr|\bfalha|\bno funciona|\bfunktioniert nicht|오류|에러|작동하지|не работает|ошибк|теряет|падает|\bslow(?:er|s| down)?\b|\b(?:wrong|incorrect(?:ly)?|misspell(?:ed|s)?|typo)\b|遅い|遅く|重い|慢|卡顿|느리|медленн|\blent[oa]s?\b|\blangsam|\blente?s?\b|\bregress(?:ed|ion)?\b|\b(?:doesn'?t|does not|won'?t|can'?t|cannot|isn'?t|is not) (?!(?:support|have|allow|provide|offer|exist|yet)\b)\w+/i
/** A report this short is the whole story: its words decide. */
const SHORT_REPORT = 300

/**
 * A bug report: a bug label (and no feature label), a `[Bug]`/`fix:` title, a bug template's sections
 * (a "describe the bug" heading, or steps to reproduce next to an expected or actual result), or words
 * that say something is broken in the title or a short body.
 */
export function isBugReport(issue: Pick<IssueDocument, 'title' | 'labels' | 'body'>, sections: readonly Section[]): boolean {
  if (issue.labels.some((l) => FEATURE_LABEL.test(l)) && !issue.labels.some((l) => BUG_LABEL.test(l))) return false
  if (issue.labels.some((l) => BUG_LABEL.test(l)) || BUG_TITLE.test(issue.title)) return true
  if (BROKEN.test(issue.title) || (issue.body.length <= SHORT_REPORT && BROKEN.test(issue.body))) return true
  const headings = sections.map((s) => s.headings[s.headings.length - 1] ?? '')
  if (headings.some((h) => BUG_HEADING.test(h)) || statesDefect(issue.title, sections)) return true
  const reproduces = headings.some((h) => REPRODUCTION_HEADING.test(h))
  const roles = new Set(sections.map(sectionRole))
  return reproduces && (roles.has('expected') || headings.some((h) => /actual|实际|実際|atual|actual|tats[äa]chlich|фактическ|что получилось|attuale|effettivo|huidig|werkelijk|aktualne|rzeczywist/i.test(h)))
}
