import { leadingWords } from './text.js'

/**
 * The role "process" (issue 38): a step of how the team delivers the work, never a task of the plan. Read by the
 * list roles (`block-roles.ts`), the task list (`task-items.ts`), the coverage (`coverage.ts`) and the epic reader.
 */

/**
 * A contributor's housekeeping step in a good-first-issue walkthrough (claim the issue, swap its label, commit,
 * open the pull request), or a stage of the team's process a done checklist ticks off (reviewed, merged, shown to
 * the product owner, the suite still green): how the work is delivered, not the change itself.
 */
const HOUSEKEEPING =
  /^(?:claim (?:this|the) issue|comment (?:below|here|on (?:this|the) issue)|assign (?:it to )?yourself|accept (?:our|the) invitation|fork (?:this|the) repo(?:sitory)?|clone (?:your|the) (?:fork|repo(?:sitory)?)|(?:create|make|check ?out) (?:a )?(?:new )?branch\b|commit (?:your|the) changes?|push (?:your|the) (?:branch|changes?|commits?)|(?:open|start|create|submit|make) (?:a|the|your) (?:pull request|PR)\b|wait for (?:a )?review|ask (?:for help|questions?) (?:here|below|in)|star (?:this|the) repo)|\b(?:replace|swap|change|add|remove) the [`'"]?[^`'"]{1,30}[`'"]? label\b|^(?:the )?(?:code|branch|pull request|PR|MR|merge request|changes?)\b.{0,40}\b(?:reviewed|approved|merged|opened|tidied|deployed)\b|^merged (?:into|to)\b|^(?:the )?(?:whole|full|entire) test suite\b|^implementation (?:is )?(?:finished|done|complete)\b|^shown to the (?:product owner|po|client|team)\b|^docs? updated where needed\b/i

/**
 * A step of the team's process that changes no code (issue 38): a vote, a review or sign-off by people, a
 * release, an announcement, a stabilisation period, a meeting, sharing a report (in the languages the corpus has). It names no file: a step that does
 * ("publish `docs/x.md`") is work.
 */
const PROCESS_STEP =
  /\b(?:votes?|voting|vote on|poll)\b|^(?:(?:the|two|all|\w+) )?(?:maintainers?|reviewers?|team|owners?|lead|leads|committee) (?:\w+ )?(?:review|approve|sign off|agree|decide)s?\b|^(?:review|approve|sign off)\b.{0,30}\b(?:pull request|PR|proposal|change|design)\b|^(?:ship|release|publish|announce|tag|cut|promote)\b.{0,40}\b(?:release|version|v?\d+\.\d+)\b|^(?:tell|inform|notify)\b.{0,30}\b(?:users|customers|people|community|everyone)\b.{0,30}\b(?:upgrade|release|safe|available|out)\b|^(?:have|get) .{0,40}\b(?:approved|signed off)\b|^(?:make sure|ensure|check that) `?(?:npm|yarn|pnpm) (?:run )?test`? (?:passes|is green)\b|^`?(?:git tag|git push|npm publish|yarn publish|pnpm publish|cargo publish|twine upload)\b|\bstabili[sz](?:e|ation)\b|\b(?:let it|leave it to) (?:bake|soak|settle)\b|\bsoak (?:time|period|test)\b|\bbake (?:time|period)\b|^(?:dogfood|announce)\b|\b(?:cut|tag|prepare|ship) (?:the |a )?(?:[\w.]+ )?(?:release candidate|rc|release)\b|^wait (?:for )?(?:one|a|two|three|\d+|the next) (?:full )?(?:release|minor|major|cycle|weeks?|sprints?|versions?)\b|\b(?:write|publish) (?:a |the )?(?:blog post|announcement)\b|^(?:schedule|hold|book|run) (?:a |the )?(?:meeting|retro(?:spective)?|post-?mortem(?: meeting)?|review meeting)\b|^(?:share|announce|circulate|present) (?:this|the) (?:report|post-?mortem|results?|findings)\b|\b(?:review|present|discuss) (?:the )?(?:results?|report|findings|post-?mortem) (?:in|at) (?:the |a )?(?:meeting|retro)|(?:ミーティング|会議|打ち合わせ)(?:で|を|に).{0,12}(?:レビュー|設定|開催|実施|行う|共有|確認)|(?:レポート|結果|報告)を.{0,10}(?:共有|周知)する|(?:召开|组织|安排)(?:会议|复盘会)|在(?:会议|复盘会)上|(?:报告|结果)(?:分享|同步|通报)给|회의(?:에서|를) ?(?:검토|공유|진행)|(?:보고서|결과)를? 공유|\b(?:marcar|agendar|fazer) (?:uma |a )?reuni[ãa]o\b|\b(?:programar|agendar|convocar|hacer) (?:una |la )?reuni[óo]n\b|\b(?:compartilhar|divulgar|compartir) (?:o|a|el|la|este|esta) (?:relat[óo]rio|informe|resultado)|\b(?:besprechung|meeting) (?:ansetzen|planen|abhalten)\b|\b(?:bericht|ergebnisse?) (?:teilen|vorstellen)\b|\b(?:planifier|organiser|tenir) (?:une |la )?r[ée]union\b|\bpartager (?:le|ce) (?:rapport|r[ée]sultat)|(?:провести|назначить|организовать) (?:встречу|совещание)|(?:поделиться|разослать) (?:отч[её]том|результат)/i
/**
 * A step on the tracker's own record, not on the code (issue 38, the form of a service desk's incident ticket): file,
 * label, assign or move the ticket to a milestone, sprint or board column, post it in a chat channel, reply to the
 * email it came from, close it or mark it resolved. The object is the ticket, the card, the incident or the email.
 */
const TRACKER_STEP =
  /\b(?:close|resolve|reopen|triage|assign|move|place|drag|link|mark)\b (?:the |this |it |that |a )?(?:[\w-]+ ){0,2}(?:ticket|issue|card|incident|case|story)\b(?! (?:template|form|page|list|tracker)\b)|\b(?:to|in|into) the (?:current |next )?(?:milestone|sprint(?: backlog)?|backlog|pipeline|board|column)\b|\b(?:reply|respond|write back)(?: all)? to\b|\bpost (?:it|the (?:ticket|link|issue|incident))\b|\bin the [#'"]?[\w-]+['"]? (?:chat |slack |teams )?channel\b|\bas (?:resolved|done|fixed|closed)\b.{0,20}$|(?:fechar|encerrar) (?:o|a) (?:ticket|issue|chamado)|cerrar (?:el|la) (?:ticket|incidencia|issue)|(?:ticket|issue) (?:schlie(?:ß|ss)en|zuweisen)|fermer (?:le|la) (?:ticket|issue)|(?:チケット|イシュー)を(?:クローズ|閉じ|アサイン)|关闭(?:工单|issue)|(?:티켓|이슈)을? 닫|закрыть (?:тикет|задачу|инцидент)/i
const NAMES_FILE = /`[^`]*[./][^`]*`|\b[\w-]+\.(?:ts|js|py|md|json|ya?ml|sql|tsx|jsx|go|rs|rb|java)\b/

export function isHousekeeping(text: string): boolean {
  const line = leadingWords(text)
  return HOUSEKEEPING.test(line) || ((PROCESS_STEP.test(line) || TRACKER_STEP.test(line)) && !NAMES_FILE.test(line))
}
