import type { Section } from './markdown.js'

/**
 * What a section of an issue is for, read from its heading. `expected` (expected behaviour) gives
 * criteria like `criteria`; `confirmations` holds a template's "I have searched…" or "type of issue"
 * checkboxes; `description` is where the template asks what the problem is, `proposal` what the
 * reporter would like done (its sentences are the criteria when the issue states none).
 */
export type SectionRole =
  | 'tasks' | 'criteria' | 'expected' | 'done' | 'verification' | 'constraints' | 'context' | 'confirmations' | 'proposal' | 'description'

/**
 * First match wins, so "Test plan" is verification and not a task list, "Steps to reproduce" is
 * context, "Expected behavior" is not the context its bug template puts it in, and "Definition of
 * done" is not read as acceptance criteria. The words are those of issue templates and issue forms
 * in English, Chinese, Japanese, Portuguese, Spanish, German, French and Korean (and Italian, Dutch and Polish: reports in languages the corpus has few of).
 */
const ROLE_PATTERNS: ReadonlyArray<readonly [SectionRole, RegExp]> = [
  ['done', /definition of done|\bdod\b|done checklist|определение готовности|完成标准|完成定义|完了の定義|defini[çc][ãa]o de (?:pronto|conclu[íi]do|feito)|definici[óo]n de (?:hecho|terminado)/i],
  [
    'criteria',
    /acceptance|acceptation|success criteria|exit criteria|(?:done|complete|finished|closed|fixed|resolved) when|closing criteria|验收|受け入れ(?:条件|基準)|受入(?:条件|基準)|完了条件|crit[ée]rios? de aceita[çc][ãa]o|crit[ée]rios? de aceite|crit[ée]rios? de aceptaci[óo]n|akzeptanzkriterien|crit[èe]res d'acceptation|인수 ?조건|완료 ?조건|критери[йи] (?:приёмки|приемки|готовности)|^(?:(?:functional|screen|ui|behaviou?r(?:al)?) )?spec(?:ification)?s?$|(?:画面|機能|动作|動作|功能|界面)?仕様$|(?:功能|界面)?(?:规格|规范)$|^especifica[çc][ãa]o(?: funcional)?$|^especificaci[óo]n(?: funcional)?$|^spezifikation$|^sp[ée]cification(?:s)? fonctionnelles?$|기능 ?명세|^функциональн\w* спецификац/i,
  ],
  [
    'expected',
    /(?<![a-z])expected|should (?:have )?happen|期待的|正确(?:的)?(?:结果|行为|表现)|应有的(?:结果|行为|表现)|正しい結果|devrait (?:se passer|arriver)|deber[íi]a (?:pasar|ocurrir)|deveria (?:acontecer|ocorrer)|sollte passieren|what did you expect|期望|预期|期待され|期待する|期待(?:動作|結果|値|の動作|の結果|の挙動)|想定される(?:動作|結果|挙動)|正しい(?:動作|挙動)|esperad[oa]|erwartet|예상|기대 ?(?:동작|결과)|예상한|attendu|ожидаем|должно (?:было )?(?:получиться|быть)|atteso|previsto|verwacht|oczekiwan/i,
  ],
  [
    'confirmations',
    /^(?:我已|我已经|我确认|是否已)|prerequisites?|before (?:submitting|opening|you (?:submit|open|file))|pre-?flight|code of conduct|existing issues?|self[- ]?check|i'?m (?:opening|filing) this issue because|(?:type|kind) of (?:issue|change|request|bug|report)|issue type|what (?:type|kind) of|checklist before|final checks?|contribut(?:ion|ing|or)(?:'s)? guide|how to contribute|first[- ]timers? only|(?:suggested|reported|requested|asked|filed) before|please (?:check|confirm|make sure) (?:that|you)|ready checklist|definition of ready|sprint[- ]ready|ready for (?:sprint|development|dev)\b|submission checklist|read and (?:tick|check|sign)|sign[- ]?off|acknowledg|确认事项|提交前|前置条件|確認事項|前提条件|投稿前|pr[ée]-?requisitos|verifica[çc][õo]es|antes de (?:enviar|abrir|reportar|publicar)|tipo de (?:issue|problema|mudan[çc]a|solicitud|cambio)|requisitos previos|voraussetzungen|사전 확인/i,
  ],
  [
    'context',
    /reproduc|\brepro\b|steps to (?:re|trigger)|actual|current (?:behaviou?r|result|output)|observed (?:behaviou?r|result)|environment|supporting information|system info(?:rmation)?|\bversions?\b|platform|operating system|\bos\b|browser|screenshot|\blogs?\b|log output|stack ?trace|traceback|additional (?:context|information|info)|anything else|alternatives?|workaround|related (?:issues?|links?)|drawbacks?|unresolved questions|open questions|prior art|risks?$|复现|重现|实际|当前行为|环境|版本|日志|截图|补充|其他|备注|再現|実際|現在の(?:動作|挙動)|環境|バージョン|ログ|スクリーンショット|補足|その他|代替案|passos para|como reproduzir|comportamento atual|ambiente|vers[ãa]o|capturas? de tela|informa[çc][õo]es adicionais|contexto adicional|alternativas|pasos para|comportamiento actual|entorno|versi[óo]n|reproduzier|tats[äa]chlich|umgebung|zus[äa]tzlich|재현|현재 동작|환경|추가 (?:정보|내용)|로그|스크린샷|воспроизв|шаги|фактическ|окружение|операционн|верси[яи]|(?:^|\s)лог|скриншот|дополнительн|riprodu|passi per|attuale|effettivo|versione|informazioni aggiuntive|stappen om|huidig|werkelijk|omgeving|versie|aanvullende|kroki do|odtworz|aktualne|rzeczywist|środowisk|wersj|dodatkowe/i,
  ],
  ['verification', /verif|\brecette\b|how to (?:test|measure|check)|benchmark|^testing\b|\btesting$|test plan|^tests?$|验证|测试|検証|テスト方法|確認方法|como testar|c[óo]mo probar|testplan|검증|테스트 방법/i],
  ['constraints', /constraint|non-goals?|out of scope|约束|限制|制約|範囲外|restri[çc][õo]es|fora do escopo|restricciones|fuera de alcance|einschr[äa]nkungen/i],
  [
    'tasks',
    /\btasks?\b|\bsteps?\b|\bplan\b|implementation|\bto-?do\b|checklist|work items?|\bscope\b|proposed (?:changes?|fix)|任务|步骤|计划|实施|实现方案|修改方案|タスク|手順|作業|やること|実装|対応案|対応方針|修正案|tarefas?|passos|etapas|escopo|implementa[çc][ãa]o|tareas?|aufgaben|schritte|작업|할 일|задач[иа]|план работ|t[âa]ches/i,
  ],
  [
    'proposal',
    /solution you'?d like|^\W*solutions?\W*$|(?:proposed|possible|suggested|preferred) solution|detailed design|^design$|^\[?(?:suggested |proposed |recommended )?(?:fix|remediation|mitigation|recommendations?)\]?$|describe the solution|(?<!(?:pull|merge|feature) )\brequest\b|\bproposal\b|what (?:do you|would you) (?:want|like)|desired (?:behaviou?r|solution)|期望的解决方案|解决方案|建议的方案|希望する(?:機能|動作|解決策)|提案|解決策|solu[çc][ãa]o proposta|solu[çc][ãa]o desejada|proposta|soluci[óo]n propuesta|propuesta|gew[üu]nschte l[öo]sung|vorschlag|원하는 (?:기능|해결책)|제안|해결 ?방안|proposition|solution (?:propos[ée]e|envisag[ée]e|souhait[ée]e)|d[ée]crivez la solution|решени|предлага/i,
  ],
  [
    'description',
    /describe|description|summary|problem|what happened|motivation|问题|描述|概要|说明|説明|問題|現象|詳細|descri[çc][ãa]o|resumo|problema|proposta|solu[çc][ãa]o|descripci[óo]n|resumen|propuesta|beschreibung|zusammenfassung|vorschlag|설명|요약|문제|описание|проблема|descrizione|beschrijving|omschrijving|opis/i,
  ],
]

export function headingRole(heading: string): SectionRole | undefined {
  return ROLE_PATTERNS.find(([, pattern]) => pattern.test(heading))?.[0]
}

/** The role of the nearest enclosing heading that has one: a `### Backend` under `## Tasks` is a task section. */
export function sectionRole(section: Section): SectionRole | undefined {
  for (let i = section.headings.length - 1; i >= 0; i--) {
    const role = headingRole(section.headings[i]!)
    if (role) return role
  }
  return undefined
}

/** Sections whose lists are never tasks, even when they hold `- [ ]` items (acceptance checklists, repro steps). */
export const NOT_TASKS: ReadonlySet<SectionRole> = new Set(['criteria', 'expected', 'done', 'verification', 'constraints', 'context', 'confirmations'])
