import type { Block, ListItem, Section } from './markdown.js'
import { sectionRole, type SectionRole } from './sections.js'
import { leadingAction } from './phrases.js'
import { isHousekeeping } from './process-steps.js'
import { squash } from './text.js'

/**
 * Where a block's role is decided, for a newcomer (start here):
 * - by its heading: `sectionRole` (sections.ts): work, criteria, expected, context (steps, environment, logs,
 *   actual behaviour), confirmations, proposal, done, verification, constraints;
 * - by its content, overriding the heading where the content is unmistakable: `listRole` below (stories,
 *   Given/When/Then, names to tick, bot controls, a question's answers, scope bounds, issue links, a proposal's orders,
 *   changes each naming their file or API, a plain list of process steps), `statesDefect`
 *   and `statesDocsDefect` below (the issue is a fix, or a docs fix, whatever its template);
 * - per item: `isConfirmation` and `isTemplatePrompt` (templates.ts: a reporter's confirmation, a template's prompt to
 *   the reporter) and `isHousekeeping` (process-steps.ts: a contributor's housekeeping, a process step such as a vote, a
 *   review by people, a release, a bake period, or a step on the tracker's own record), never tasks; a list most of
 *   whose steps are process describes the process (`listRole`); an item that says it was done in #n is done (`saysDoneIn`);
 * - expected results outside an Expected section: `expectedStatement` and `askedExpectation` (templates.ts: an
 *   "Expected: …" line, a table row's Expected column as markdown.ts reads it, "Shouldn't … ?"), and a bug report's
 *   prose "should"/"I expect" sentences (`readOutcomes`, outcomes.ts);
 * - work outside a task list: `defectParagraphs` (bug-report.ts: one fix a defect) and `uncoveredAcceptance` (epic.ts:
 *   an epic's acceptance items no child covers);
 * - what the plan did with each block: `leftOutOf` (coverage.ts) names what no task carries, and why.
 *
 * The role of a list read from its own content and from the paragraph that introduces it, so that a form
 * never seen still falls into roles: a user story's "As a … / I want … / So that …" lines are context, a
 * Given/When/Then block states criteria, a list of @names to tick or a bot's "tick a checkbox below to …"
 * list holds confirmations. Content wins over the heading only where the content is unmistakable.
 */

type ListBlock = Extract<Block, { kind: 'list' }>

/** The opening words of a user story's lines, in the languages issues are written in. */
const STORY_LINE =
  /^(?:as an?|i want|i'd like|so that|in order to|en tant qu['e]|je (?:veux|souhaite|voudrais)|afin (?:de|que)|pour que|como (?:um|uma|un|una)\b|(?:eu )?quero|para que|(?:yo )?(?:quiero|deseo|necesito)|als (?:ein|eine|\w+)\b.*\b(?:möchte|will)|ich möchte|damit|作为|我(?:想|希望|要)|以便|として|ために|저는|로서|как (?:пользователь|\w+)|я хочу|чтобы)/i

/** A Given/When/Then line (Gherkin), in English, French, Portuguese, Spanish, German, Russian, Chinese, Japanese. */
export const GHERKIN_LINE =
  /^(?:given|when|then|and|but|[ée]tant donn[ée]e?s?|lorsqu['e]|quand|alors|et|dado|quando|ent[ãa]o|cuando|entonces|angenommen|gegeben sei|wenn|dann|дано|когда|тогда|假如|假设|当|那么|前提|もし|ならば)\b[\s:：]/i

/** A checkbox that names a person (`@amara`, `@joao (backend)`): a read-confirmation, never work. */
const MENTION = /^@[\w.-]+(?:\s*[(（][^)）]*[)）])?[.!]?$/

/** A paragraph that says the checkboxes below are a bot's controls ("tick a checkbox below to force a rebase"). */
const CONTROL_PARAGRAPH = /\b(?:click|tick|check|select|mark)\b[^.\n]{0,40}\bcheck ?box(?:es)?\b/i
/** A paragraph that asks people to tick their own name (after reading, to agree): the names are confirmations. */
const SIGN_PARAGRAPH = /\b(?:tick|check|mark)s? (?:off )?(?:their|your|his|her) (?:own )?names?\b|\bonce (?:they|you|everyone) (?:have |has )?read\b/i

const SCOPE_LABEL = /^(?:in scope|out of scope|not in scope|non-goals?|fora do escopo|fuera de(?:l)? alcance|hors (?:du )?p[ée]rim[èe]tre|范围外|スコープ外)\b/i
const ISSUE_LINK = /^(?:blocked by|blocks|depends on|related to|relates to|part of|parent(?: issue)?:?)\s+#\d+\.?$/i

/** The role of `list` in `section`: from its content when that is unmistakable, else from the section's heading. */
export function listRole(section: Section, list: ListBlock): SectionRole | undefined {
  const heads = list.items.map((i) => squash(i.head.plain).replace(/^\*+|\*+$/g, ''))
  if (heads.length && heads.every((h) => MENTION.test(h))) return 'confirmations'
  if (introducedAsControls(section, list) || introducedBy(section, list, SIGN_PARAGRAPH)) return 'confirmations'
  // A question's boxes are its answers ("Can you make it happen again?" over "Yes, every time" / "No, it seems random"):
  // the reporter's choice, not work, when no box is an order.
  if (asksQuestion(section) && list.items.every((i) => i.checked !== undefined) && heads.every((h) => leadingAction(h) === undefined)) return 'confirmations'
  // "Como socio de la biblioteca" opens a story as well as "Como un socio" when the lines after it are the story's.
  const opensStory = (h: string) => STORY_LINE.test(h) || /^como\s/i.test(h)
  if (heads.length >= 2 && opensStory(heads[0]!) && heads.filter((h) => STORY_LINE.test(h)).length * 2 >= heads.length) return 'context'
  if (heads.length >= 2 && heads.every((h) => GHERKIN_LINE.test(h))) return 'criteria'
  // "In scope: … / Out of scope: …" bounds the work (a constraint), even under a "Scope" heading that reads as work.
  if (heads.some((h) => SCOPE_LABEL.test(h))) return 'constraints'
  // "Blocked by #141", "Depends on #12": links between issues, not work.
  if (heads.length && heads.every((h) => ISSUE_LINK.test(h))) return 'context'
  // A plain list most of whose steps are the team's process (cut the release, let it bake, tell customers) describes
  // that process, as a proposal to write it down does: its steps are not changes to plan. (A checklist of the same steps
  // is someone's to-do: its work items stay tasks and its process items are left out one by one.)
  if (heads.length >= 3 && list.items.every((i) => i.checked === undefined) && heads.filter((h) => isHousekeeping(h)).length * 2 > heads.length) return 'context'
  const role = sectionRole(section)
  // A list under no role whose items each name their own file or API and say what changes there, as an order ("rename
  // `store.get_all()` to …") or as the change ("`Client.close()` waits for pending requests"), is the work: one task a
  // change (issue 38). A bare list of paths ("Affected areas") only says where.
  const named = list.items.map(namedCode)
  const saysChange = (head: string, code: string) => head.replace(code, ' ').split(/\s+/).filter((w) => /\p{L}{2,}/u.test(w)).length >= 3
  if (!role && heads.length >= 2 && named.every((c, at) => c !== undefined && saysChange(heads[at]!, c)) && new Set(named).size === named.length) return 'tasks'
  // A proposal's or a design's list of orders ("1. Store … in `a.ts`", "2. Merge … in `b.ts`") is the work.
  if ((role === 'proposal' || role === 'description') && heads.length >= 2 && heads.every((h) => leadingAction(h) !== undefined)) return 'tasks'
  return role
}

/** The first code span of the item that names a file (`a/b.ts`) or an API (`store.put()`, `Client.close`, `flush()`). */
function namedCode(item: ListItem): string | undefined {
  return item.head.codeSpans.find((c) => /^[\w$]+(?:\.[\w$]+)*\(\)$|^[A-Za-z_$][\w$]*\.[A-Za-z_$][\w$]*(?:\(\))?$|^[\w.-]+\/[\w./-]+\.\w+$/.test(c.code))?.code
}

/** The section's own heading is a question ("Can you reliably make the error happen?", "¿Se puede reproducir?", 再現しますか？). */
function asksQuestion(section: Section): boolean {
  return /[?？]\s*$/.test(section.headings[section.headings.length - 1] ?? '')
}

/** Whether a paragraph before the list, in its section, says its checkboxes are controls or confirmations. */
export function introducedAsControls(section: Section, list: ListBlock): boolean {
  return introducedBy(section, list, CONTROL_PARAGRAPH)
}

function introducedBy(section: Section, list: ListBlock, pattern: RegExp): boolean {
  const at = section.blocks.indexOf(list)
  return section.blocks.slice(0, at).some((b) => b.kind === 'paragraph' && pattern.test(b.plain))
}

/**
 * An item that says it is already done, in the pull request or issue it names ("The async client was fixed in #212",
 * "The JS client got it in #215", "landed in #90"): recorded as done, like a ticked box, never a task.
 */
const DONE_IN =
  /\b(?:(?:was|were|has been|have been|is|are)(?: already)? (?:fixed|done|added|implemented|landed|merged|resolved|addressed)|got (?:it|this|that|them|fixed)|landed|merged|shipped)\b (?:in|by|with|via) (?:PR |pull request )?#\d+/i

export function saysDoneIn(text: string): boolean {
  return DONE_IN.test(text)
}

/** A paragraph that is a user story's "As a …, I want …, so that …" (it says who and why, not what to change). */
export function isStoryParagraph(text: string): boolean {
  return STORY_LINE.test(squash(text).replace(/^\*+/, ''))
}

/**
 * Given/When/Then scenarios in a paragraph: each scenario (a run of lines from a Given or When to its Then lines)
 * as one criterion, emphasis marks and a leading name line dropped.
 */
export function gherkinScenarios(paragraph: string): string[] {
  const lines = paragraph.split('\n').map((l) => squash(l.replace(/[*_]/g, ' ')))
  const scenarios: string[] = []
  let current: string[] = []
  let sawThen = false
  const flush = () => {
    if (current.length >= 2 && sawThen) scenarios.push(current.join(' '))
    current = []
    sawThen = false
  }
  for (const line of lines) {
    if (!GHERKIN_LINE.test(line)) {
      flush()
      continue
    }
    const word = line.split(/[\s:：]/)[0]!.toLowerCase()
    if (sawThen && /^(?:given|when|[ée]tant|lorsqu|quand|dado|quando|cuando|angenommen|gegeben|wenn|дано|когда|假|当|前提|もし)/i.test(word)) flush()
    if (/^(?:then|alors|ent[ãa]o|entonces|dann|тогда|那么|ならば)/i.test(word)) sawThen = true
    current.push(line)
  }
  flush()
  return scenarios
}

/** Every list item, nested ones too. */
export function allItems(items: readonly ListItem[]): ListItem[] {
  return items.flatMap((item) => [item, ...allItems(item.children)])
}

/**
 * A block that states a defect whatever its heading or template (issue 38): what happens instead ("Instead it
 * truncates …"), a wrong value ("should have been 36", "sollte eigentlich 36 € sein"), an expected result beside the
 * actual one ("expected 7.25 but got 6", a table's Expected and Actual columns), it worked in an earlier version
 * ("Last working release: 3.7.2", "going back to 1.4.2 everything works again"), it no longer works ("none of my tabs switch any more"), the program ignores what the user set
 * ("whatever `scan_interval` I set", "ignores the configured …"), it stopped doing what it did ("stopped going out",
 * "no longer syncs", "as they did until Tuesday"), it fails to build or start, a value is off ("one day early", "off by
 * one"), a partial result against what it should be ("only has my own recipes, but it should have the shared ones as well"), an action done more than once ("charged three times", "zweimal abgebucht", 二重に請求; not "twice a day"). Such a
 * block makes the issue a fix.
 */
const DEFECT_STATEMENT =
  /\binstead,? (?:it|this|they|we get|I get|the \w+) (?!(?:should|would|could|might|will|can|must)\b)\w+|\b(?:should|ought to) have been\b|\bexpected\b[^.\n]{0,80}\b(?:but (?:got|get|it|the|saw)|actual(?:ly)?|instead)\b|^Expected: .*\bActual: |\bsollte (?:eigentlich|aber|doch) |\b(?:einen|ein) (?:Fehler|Bug) gefunden\b|\baurait d[ûu] être\b|\bdeveria ter sido\b|\bdeber[íi]a haber sido\b|\blast (?:known )?working (?:release|version|build)\b|\bworked (?:fine |well )?(?:in|on|with|before) v?\d|\b(?:going|rolling|switching) back to v?\d+(?:\.\d+)*[^.]*\bagain\b|\b(?:not|n't|none of (?:my|the|our) \w+)\s+(?:\w+ ){0,3}?(?:works?|switch(?:es)?|loads?|opens?|shows?|saves?|syncs?|starts?|runs?|responds?|updates?|renders?|appears?|prints?|sends?)\s+any ?more\b|\bwhatever\b[^.]{0,40}\b(?:I|we|you) (?:set|configure|pass|choose)\b|\bignores? (?:the|my|our|any) (?:configured|given|chosen)\b|\bstopped (?:working|\w+ing)\b|\bno longer (?!(?:needs|requires)\b)(?:works|\w+(?:[^s\W]s|ches|shes))\b|\bas (?:it|they|we|I) did (?:until|before)\b|\bfails? (?:to (?:build|compile|start|load)|with)\b|\b(?:one|a|an|two|three|\d+) (?:day|hour|minute|week|month|year|cent|row|item|page)s? (?:too )?(?:early|late|off|behind|ahead|short)\b|\boff by (?:one|\d+)\b|\bonly (?:has|have|had|shows?|showed|contains?|lists?|includes?|exports?|returns?|writes?|gives?|gets?|keeps?)\b[^.\n]{0,100}\bbut\b[^.\n]{0,40}\b(?:should|ought to|must|expected)\b|\bnur\b[^.\n]{0,100}\baber\b[^.\n]{0,40}\bsollte|\bseulement\b[^.\n]{0,100}\bmais\b[^.\n]{0,40}\bdevrai|\bsolo\b[^.\n]{0,100}\bpero\b[^.\n]{0,40}\bdeber[íi]a|\bs[óo]\b[^.\n]{0,100}\bmas\b[^.\n]{0,40}\bdeveria|只(?:有|包含|显示)[^。\n]{0,60}(?:但|可是)[^。\n]{0,30}应该|しか[^。\n]{0,40}(?:ない|ません)[^。\n]{0,40}はず|\bтолько\b[^.\n]{0,100}\bно\b[^.\n]{0,40}\bдолж|\b(?:charged|billed|sent|created|booked|added|imported|posted|saved|inserted|emailed|notified|executed|fired|counted|listed|shown|applied|deducted|paid)\b (?:\w+ ){0,3}(?:twice|two times|three times|(?:\d+|several|multiple) times)\b(?! (?:a|an|per|each|every) \w+)|\b(?:zweimal|doppelt) (?:\w+ ){0,3}(?:abgebucht|berechnet|gesendet|angelegt|gebucht)\b|\b(?:débité|facturé|envoyé|créé)e?s? (?:deux|trois|\d+) fois\b|\b(?:cobrad|enviad|criad|cread)[oa]s? (?:duas|tr[êe]s|dos|\d+) (?:vezes|veces)\b|(?:扣款|扣费|发送|创建)了?(?:两|三|\d+)次|(?:二重|2回|3回)(?:に)?(?:請求|課金|送信|登録)|(?:두|세|\d+) ?번 (?:결제|청구|전송)|(?:списа\w*|отправ\w*|созда\w*) (?:дважды|трижды)/i

/**
 * A defect in other words (issue 38, reports in other languages and of other kinds): a value shown instead of another
 * ("the total is 100 instead of 90", "è 100 invece di 90", "is 14 maart in plaats van 15", not "it should show … instead
 * of", not "open it with … instead of"; in a paragraph: a list's items may be the changes wanted), a string left untranslated ("still in English", "not translated", "nicht übersetzt", 未翻译), it does not work or
 * does nothing ("non funziona", "werkt niet", "nie działa", "nothing happens"), a value that is wrong ("is incorrect",
 * "ist falsch", "è sbagliato"), data a run spoiled ("doubled the opening balance", "duplicated 40 rows"), a failure that remains ("still drops the
 * header"), a sibling of the defect already fixed ("the async client was fixed in #212"), the reporter asking whether
 * it is a bug ("Is that expected?"), a report of several ("a few things I noticed:", `SEVERAL_DEFECTS`).
 */
const VALUE_INSTEAD =
  /\b(?:is|are|was|were|shows|returns|displays|gives|prints|scrolls|jumps|opens|goes|sends|lists|sorts|reads|writes|saves|(?:I|we) (?:get|got|see|saw|receive|received))\b[^.\n]{0,60}\binstead of\b|(?:^|\s)(?:è|sono|mostra|restituisce|is|zijn|toont|geeft|ist|sind|zeigt|est|sont|affiche|es|son|muestra|é|são|jest|są|pokazuje|показывает|равно)\s[^.\n]{0,60}(?:\binvece d|\bin plaats van\b|\bstatt\b|\bau lieu d|\ben (?:lugar|vez) de\b|\bem vez de\b|\bzamiast\b|\bвместо\b)/i
const DEFECT_IN_OTHER_WORDS =
  /\bis (?:this|that|it) (?:really )?(?:expected|intended|normal|correct|by design|a bug)\b[^.\n]*\?|\bstill (?:drops|loses|ignores|crashes|fails|throws|breaks|misses|skips|hangs|freezes|leaks|duplicates|truncates|overwrites)\b|\b(?:was|were|has been|have been|got) fixed (?:in|by) (?:#\d+|PR|pull request)|\b(?:still|only|shown|appears?|displayed|remains?|stays?) (?:\w+ ){0,2}in English\b|\b(?:not|isn'?t|aren'?t|wasn'?t|weren'?t|never) (?:been )?translated\b|\buntranslated\b|\bmistranslat\w*|\b(?:wrong|incorrect|bad) translations?\b|\bnicht übersetzt\b|\bnon (?:è |sono )?tradott|\bpas traduite?s?\b|\bno (?:está |están )?traducid|\bnão (?:está |estão )?traduzid|未翻译|没有翻译|翻訳されていない|未翻訳|번역되지 않|не переведен|\bnon funziona\b|\bwerkt niet\b|\bnie działa\b|\bne (?:fonctionne|marche) (?:pas|plus)\b|\bdoes nothing\b|\bnothing happens\b|\b(?:is|are|was|were|seems?) (?:wrong|incorrect)\b|(?:^|\s)è sbagliat[oa]\b|\bis (?:fout|verkeerd|onjuist)\b|\bist falsch\b|\best (?:faux|fausse|incorrecte?)\b|\best[áa] (?:mal|equivocad[oa]|errad[oa]|incorrect[oa])\b|\bjest (?:błędn|nieprawidłow)\w*|\b(?:doubled|duplicated|corrupted|overwrote|wiped) (?:\w+ ){0,3}(?:rows?|records?|entries|balances?|data|values?|amounts?)\b/i

/** A paragraph that opens a report of several defects: "A few things I noticed:", "Found three bugs in the beta:". */
export const SEVERAL_DEFECTS =
  /\b(?:a few|several|some|two|three|four|five|multiple|\d+) (?:things|issues|problems|bugs|glitches|defects|oddities)\b (?:(?:that )?I )?(?:noticed|found|spotted|ran into|saw|hit)\b|\b(?:found|noticed|spotted|hit) (?:a few|several|some|two|three|four|five|multiple|\d+) (?:things|issues|problems|bugs|glitches|defects)\b/i

/** The documentation is the thing at fault: "the docs say …", "the documentation in `docs/x.md` should give …". */
const DOCS_DEFECT =
  /\b(?:documentation|docs|readme|options page|manual|user guide)\b(?:[^.\n]|\.\w){0,60}\b(?:says?|states?|claims?|is (?:wrong|incorrect|outdated)|should (?:say|give|read|list|show|mention|document))\b/i

/** The paragraphs of the sections: a list's items may be the changes wanted ("`fetchAll()` returns an iterator instead of an array"). */
function paragraphs(sections: readonly Section[]): string[] {
  return sections.flatMap((s) => s.blocks.flatMap((b) => (b.kind === 'paragraph' ? [b.plain] : [])))
}

/** Every piece of text of the sections: paragraphs and list items (code blocks are evidence, not statements). */
function statements(sections: readonly Section[]): string[] {
  return sections.flatMap((s) => s.blocks.flatMap((b) => (b.kind === 'paragraph' ? [b.plain] : b.kind === 'list' ? allItems(b.items).map((i) => i.head.plain) : [])))
}

/**
 * A stack trace: an error line, or a runtime's `Warning:` line, and a frame (`at f (src/a.ts:3:1)`, `File "a.py", line 3`,
 * a component stack's `in Grid (at src/a.jsx:64)`, also run together on one line as a console's copy leaves it).
 */
const TRACE =
  /^\s*(?:uncaught\s+)?(?:[A-Z][\w.]*(?:Error|Exception)\b|Warning:)[\s\S]*?(?:^\s*(?:at\s+\S|File ")|\b(?:at|in) [^\n]{0,80}?\((?:at )?[\w.@/-]+\.\w+:\d+)|^\s*File "[\s\S]*^\s*[A-Z][\w.]*(?:Error|Exception)\b/m

/** Whether the title or a block of the issue states a defect (see DEFECT_STATEMENT), or shows one: a stack trace, fenced or pasted as text. */
export function statesDefect(title: string, sections: readonly Section[]): boolean {
  const traces = sections.some((s) => s.blocks.some((b) => (b.kind === 'code' || b.kind === 'paragraph') && TRACE.test(b.text)))
  return (
    traces ||
    [...statements(sections), ...sections.flatMap((s) => s.headings)].some((text) => SEVERAL_DEFECTS.test(text)) ||
    [title, ...statements(sections)].some((text) => DEFECT_STATEMENT.test(text) || DEFECT_IN_OTHER_WORDS.test(text)) ||
    [title, ...paragraphs(sections)].some((text) => VALUE_INSTEAD.test(text))
  )
}

/** Whether the issue says its documentation is what is wrong: the work is a documentation fix. */
export function statesDocsDefect(sections: readonly Section[]): boolean {
  return statements(sections).some((text) => DOCS_DEFECT.test(text))
}

/**
 * The issue says what users see does not change ("Nothing should change for users", "no behaviour change", "public
 * API behaviour stays unchanged"): the work restructures code, a refactor, whatever its template calls it.
 */
const UNCHANGED_BEHAVIOUR =
  /\bnothing (?:should |will )?changes? for (?:users|the user|anyone)\b|\bno (?:user-visible |user-facing |functional |behaviou?r(?:al)? )change\b|\bbehaviou?r (?:stays|remains|is kept|must stay|should stay) (?:the same|unchanged|as it is)\b|\bstays? unchanged\b|\bnada muda para\b|\bsem mudan[çc]a (?:de|no) comportamento\b|\bnada cambia para\b|\bsin cambios? (?:de|en el) comportamiento\b|\bf[üu]r (?:nutzer|benutzer)\w* [äa]ndert sich nichts\b|\brien ne change pour\b|挙動は変わら|动作不变|行为不变|동작은 (?:그대로|변하지)|поведение не (?:меняется|изменится)/i

export function statesUnchangedBehaviour(sections: readonly Section[]): boolean {
  return statements(sections).some((text) => UNCHANGED_BEHAVIOUR.test(text))
}
