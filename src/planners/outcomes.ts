import type { ListItem, Section } from './markdown.js'
import { filePath, isMetadataLine, leadingLabel } from './phrases.js'
import { gherkinScenarios, listRole } from './block-roles.js'
import { sectionRole } from './sections.js'
import { isNumericTarget, runStatement, testCommands } from './statements.js'
import { isShellBlock, shellCommands } from './shell.js'
import { singleCommand } from './task-draft.js'
import { squash } from './text.js'
import { askedExpectation, expectedStatement, isEmptyAnswer } from './templates.js'

/** A criterion, command or manual check, with what says which tasks it belongs to. */
export interface Outcome {
  text: string
  /** Tasks it names (`T2: …`, `# T2` above a command, a `### T2` heading); empty when none. */
  refs: string[]
  /** File paths it mentions, to find the tasks that touch them. */
  paths: string[]
}

/** What the issue says about when the work is done, outside the task items. */
export interface Outcomes {
  criteria: Outcome[]
  commands: Outcome[]
  /** Verification steps that are not commands, written `Manual: …`. */
  manualChecks: Outcome[]
  /** Paragraphs of "Definition of done" sections. */
  definitionOfDone: Outcome[]
  constraints: string[]
  /** Whether the issue has a section of each kind (to tell "no section" from "nothing for this task"). */
  found: { criteria: boolean; verification: boolean }
  /** Code blocks without a language under a verification heading (not run: the language is unknown). */
  unlabelledBlocks: number
  /** Sentences of a proposed-solution section: the criteria when the issue states none. */
  proposals: Outcome[]
  /** Sentences of the issue's prose that say what must be true ("… should return 404"): the criteria when there is nothing better. */
  requirements: Outcome[]
}

/**
 * Acceptance, expected-behaviour and Definition of done sections: every list item (nested ones too)
 * is a criterion; when an acceptance or expected-behaviour section has no list, its paragraphs are
 * (unanswered form fields left out). Elsewhere a line "Expected: …" states one. Definition-of-done paragraphs are the
 * definition of done. Verification sections: each line of a shell block is a command; a list item
 * that is one command in a code span (`` Run `npm test` ``) is a command, any other item a manual
 * check. `Risk: high`-style lines are left out. A `T2: …` label or a `### T2` heading says which
 * task something belongs to.
 */
export function readOutcomes(sections: readonly Section[], { bug = false }: { bug?: boolean } = {}): Outcomes {
  const out: Outcomes = {
    criteria: [], commands: [], manualChecks: [], definitionOfDone: [], constraints: [],
    found: { criteria: false, verification: false },
    unlabelledBlocks: 0,
    proposals: [],
    requirements: [],
  }
  for (const section of sections) {
    const role = sectionRole(section)
    const headingRefs = leadingLabel(section.headings[section.headings.length - 1] ?? '', 'loose').refs
    // A list whose content gives it another role than its heading (Given/When/Then lines, a story's lines, names to tick).
    const lists = section.blocks.flatMap((b) => (b.kind === 'list' ? [{ block: b, role: listRole(section, b) }] : []))
    const items = lists.flatMap((l) => (l.role === role ? flatten(l.block.items) : [])).filter((i) => !isMetadataLine(i.head.plain))
    const stated = lists.flatMap((l) => (l.role === 'criteria' && role !== 'criteria' ? flatten(l.block.items) : []))
    if (stated.length) {
      out.found.criteria = true
      out.criteria.push(...stated.map((i) => labelled(i.head.text, headingRefs, i.head.codeSpans.map((c) => c.code))))
    }
    const paragraphs = section.blocks.flatMap((b) => (b.kind === 'paragraph' && squash(b.text) && !isMetadataLine(b.plain) ? [squash(b.text)] : []))
    switch (role) {
      case 'criteria':
      case 'expected': {
        const scenarios = section.blocks.flatMap((b) => (b.kind === 'code' ? gherkinScenarios(b.text) : []))
        const stated = [...items.map((i) => labelled(i.head.text, headingRefs, i.head.codeSpans.map((s) => s.code))), ...scenarios.map((c) => labelled(c, headingRefs, []))]
        // Paragraphs state criteria too, except the one that introduces the list ("… when the condition is met:").
        // A question is the template's prompt ("What can be verified …?"), not a criterion.
        stated.push(...paragraphs.filter((p) => (!items.length || !/[:：]$/.test(p)) && !/[?？]\**$/.test(p)).map((p) => labelled(p, headingRefs, [])))
        const answered = stated.filter((c) => c.text && !isEmptyAnswer(c.text))
        if (answered.length) out.found.criteria = true
        out.criteria.push(...answered)
        break
      }
      case 'done':
        if (items.length) out.found.criteria = true
        out.criteria.push(...items.map((i) => labelled(i.head.text, headingRefs, i.head.codeSpans.map((s) => s.code))))
        out.definitionOfDone.push(...paragraphs.map((p) => labelled(p, headingRefs, [])))
        break
      case 'verification':
        out.found.verification = true
        for (const block of section.blocks) {
          if (block.kind !== 'code') continue
          if (isShellBlock(block))
            for (const c of shellCommands(block)) out.commands.push({ text: c.command, refs: c.refs.length ? c.refs : headingRefs, paths: commandPaths(c.command) })
          else if (!block.lang) out.unlabelledBlocks++
        }
        for (const item of items) {
          const command = singleCommand(item.head)
          if (command) out.commands.push({ text: command, refs: headingRefs, paths: commandPaths(command) })
          else {
            const check = labelled(item.head.text, headingRefs, item.head.codeSpans.map((s) => s.code))
            if (check.text) out.manualChecks.push({ ...check, text: `Manual: ${check.text}` })
          }
        }
        break
      case 'constraints':
        out.constraints.push(...items.map((i) => squash(i.head.text)).filter(Boolean))
        break
      case 'confirmations':
        break
      case 'proposal':
        readChecks(section, lists.flatMap((l) => (l.role === role ? l.block.items : [])), headingRefs, out)
        out.proposals.push(
          // A ticked or unticked box in a proposal is a confirmation or a choice, not what is proposed.
          ...[...paragraphs, ...items.filter((i) => i.checked === undefined).map((i) => squash(i.head.text))]
            .flatMap(sentences)
            .filter((s) => !isEmptyAnswer(s) && !RUN_SENTENCE.test(s))
            .map((s) => labelled(s, headingRefs, [])),
        )
        break
      default: {
        if (role !== 'context') {
          const said = [...paragraphs, ...items.filter((i) => i.checked === undefined).map((i) => squash(i.head.text))]
          // A requirement that names a file belongs to the task that touches it.
          out.requirements.push(...said.flatMap(sentences).filter(isRequirement).map(whatItDid).map((s) => labelled(s, headingRefs, [...s.matchAll(/`([^`]+)`/g)].map((m) => m[1]!))))
          // A paragraph right after the list of work says what the work achieves ("Each change in the history shows …").
          out.requirements.push(...closingParagraphs(section).filter((p) => !said.some((s) => isRequirement(s) && p.includes(s))).map((p) => labelled(p, headingRefs, [])))
          // Top-level items only: a nested "Run: `cmd`" belongs to the task it is under (task-draft.ts).
          readChecks(section, lists.flatMap((l) => (l.role === role ? l.block.items : [])), headingRefs, out)
        }
        // "Expected: 404" inside the steps, the description or a task section.
        // Line by line and sentence by sentence: "… every week. The expected outcome: no edit is lost."
        const lines = [
          ...section.blocks.flatMap((b) => (b.kind === 'paragraph' ? b.text.split('\n').flatMap((l) => l.split(/(?<=[.!?])\s+(?=the expected\b)/i)).map(squash) : [])),
          ...items.map((i) => squash(i.head.text)),
        ]
        // An expected result asked as a question ("Shouldn't the total match …?"), in a section that is not context.
        const asked = role === 'context' ? [] : paragraphs.flatMap(sentences).flatMap((s) => askedExpectation(s) ?? [])
        const expected = [...lines.flatMap((line) => expectedStatement(line) ?? []), ...asked]
        if (expected.length) out.found.criteria = true
        out.criteria.push(...expected.map((text) => labelled(text, headingRefs, [])))
      }
    }
  }
  out.criteria = out.criteria.filter((c) => c.text)
  out.definitionOfDone = out.definitionOfDone.filter((d) => d.text)
  // A feature request that states no criteria says what it wants in its proposal: that is what to check.
  if (!out.criteria.length && out.proposals.length) out.criteria = out.proposals
  if (!out.criteria.length && out.requirements.length) out.criteria = out.requirements
  // A bug report's prose says what should happen beside what does ("… it should show the new price right away"):
  // an expected result wherever it stands, so a criterion even when a section states others.
  else if (bug) out.criteria.push(...out.requirements.filter((r) => !out.criteria.some((c) => c.text.includes(r.text) || r.text.includes(c.text))))
  return out
}

/**
 * What a work or description section says about checking the work: Given/When/Then scenarios and numeric targets
 * are criteria; "Run `npm test`" lines and test commands named in the prose are verification commands.
 */
function readChecks(section: Section, items: readonly ListItem[], headingRefs: string[], out: Outcomes): void {
  const paragraphs = section.blocks.flatMap((b) => (b.kind === 'paragraph' ? [b] : []))
  // A ```gherkin block, or any code block of Given/When/Then lines, holds scenarios too.
  const blocks = section.blocks.flatMap((b) => (b.kind === 'code' && (b.lang === 'gherkin' || b.lang === 'feature' || gherkinScenarios(b.text).length) ? [b.text] : []))
  const criteria = [
    ...[...paragraphs.map((p) => p.text), ...blocks].flatMap((text) => gherkinScenarios(text)),
    ...paragraphs.flatMap((p) => sentences(squash(p.text))).filter((s) => isNumericTarget(s) && !expectedStatement(s)),
  ]
  if (criteria.length) out.found.criteria = true
  out.criteria.push(...criteria.map((text) => labelled(text, headingRefs, [])))
  for (const line of [...items.map((i) => i.head), ...paragraphs]) {
    const run = runStatement(line)
    const commands = run ? [run.command] : testCommands(line)
    for (const command of commands) out.commands.push({ text: command, refs: headingRefs, paths: commandPaths(command) })
    if (run?.check) out.criteria.push(labelled(run.check, headingRefs, []))
  }
}

/** Paragraphs of a section that come after a list of it (not questions, not "Run `cmd`" lines): what the listed work achieves. */
function closingParagraphs(section: Section): string[] {
  const firstList = section.blocks.findIndex((b) => b.kind === 'list')
  if (firstList < 0) return []
  return section.blocks
    .slice(firstList + 1)
    .flatMap((b) => (b.kind === 'paragraph' && !isMetadataLine(b.plain) ? [squash(b.text)] : []))
    .filter((p) => p.split(/\s+/).length >= 5 && !/[?？:：]$/.test(p) && !RUN_SENTENCE.test(p) && !isEmptyAnswer(p))
}

/** A sentence that says to run a command: how the work is checked, not what it must do. */
const RUN_SENTENCE = /^\s*(?:please\s+)?(?:run|execute)\b[^`]*`/i

/**
 * A sentence that states what must be true: a modal verb of obligation, or what worked before a regression ("clicking a
 * header shows its panel like before", "the report used to end with a totals row, but now …"), in the languages issues are
 * written in (Italian, Dutch and Polish too: reports in languages the corpus has few of).
 */
const REQUIREMENT =
  /\b(?:should|must|needs? to|has to|have to|is expected to|shall|i(?:'d| would)? expect(?:ed)?|expected)\b|应该|应当|必须|需要|要能|べき|必要があ|ようにする|こと[。.]?$|\b(?:deve|devem|deveria|precisa|debe|deben|deber[íi]a|sollte|sollen|muss|m[üu]ssen|doit|doivent|devrai(?:t|ent)|dovrebbe(?:ro)?|devono|mi aspett(?:o|avo)|zou(?:den)? moeten|moet(?:en)?|powin(?:ien|na|no|ny|ni))\b|(?:^|\s)должн|해야|\b(?:like|as) (?:it did )?before\b|\bas it used to\b|(?<!\b(?:is|are|was|were|be|been|being|get|gets|got) )\bused to\b(?= \w+)[^.]{0,120}\bbut (?:now|since|after)\b|\bwie (?:vorher|fr[üu]her)\b|\bcomme avant\b|\bcomo antes\b|以前の(?:ように|通り)|像以前一样|예전처럼|как раньше/i

/**
 * A hedged sentence is a guess, not a requirement ("Maybe the timezone change broke it, I'm not sure"), and a footnote
 * or a tool's footer line (`[^1]: …`, "┆Issue is synchronized with …", "Sent from my phone") is not the issue's text.
 */
const HEDGED =
  /\b(?:maybe|perhaps|possibly|i(?:'m| am) not sure|not sure (?:if|whether)|i (?:guess|wonder|suspect)|talvez|quiz[áa]s|tal vez|vielleicht|peut-[êe]tre)\b|может быть|也许|或许|かもしれ|たぶん|아마/i
const FOOTER = /^\s*(?:\[\^\w+\]:?|[¹²³]|┆|sent from my\b|--\s*$)/i

/** What a regression's sentence says worked: "The report used to end with a totals row, but now it is gone." → its first half. */
function whatItDid(sentence: string): string {
  const worked = /^(.*\bused to\b.*?),? but (?:now|since|after)\b/i.exec(sentence)
  return worked ? `${worked[1]}.` : sentence
}

function isRequirement(sentence: string): boolean {
  return REQUIREMENT.test(sentence) && !/\?\s*$/.test(sentence) && !HEDGED.test(sentence) && !FOOTER.test(sentence)
}

/** Sentences of a paragraph (`.`, `!`, `?` before a space, or `。！？`), without the ones that are too short to check. */
function sentences(text: string): string[] {
  return text.split(/(?<=[.!?])\s+|(?<=[。！？])/).map((s) => s.trim()).filter((s) => s.length >= 8)
}

function flatten(items: readonly ListItem[]): ListItem[] {
  return items.flatMap((item) => [item, ...flatten(item.children)])
}

/** A `T2: …` label wins over the heading's; the label is not part of the text. */
function labelled(text: string, headingRefs: string[], codes: string[]): Outcome {
  const label = leadingLabel(text, 'strict')
  return {
    text: squash(label.rest),
    refs: label.refs.length ? label.refs : headingRefs,
    paths: codes.flatMap((code) => filePath(code)?.path ?? []),
  }
}

function commandPaths(command: string): string[] {
  return command.split(/\s+/).flatMap((word) => filePath(word.replace(/^['"]|['"]$/g, ''))?.path ?? [])
}
