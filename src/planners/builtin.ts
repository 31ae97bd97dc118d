import { linkCriteria } from '../plan/proof-findings.js'
import { inferEffort, inferTaskType, issueId, solutionId, type Priority, type TaskInput, type TaskType } from '../model/index.js'
import { assignOutcomes, finalTasks } from './assign.js'
import { readMarkdown, type ListItem, type Section } from './markdown.js'
import { missingNotes, questionsForReporter, taskSourceNotes } from './notes.js'
import { readOutcomes } from './outcomes.js'
import { bugFacts, isSecurityReport, type BugFacts } from './bug-report.js'
import { issueDescription, planTasks, titleWords, type PlannedTask } from './planned-tasks.js'
import { inferAnalysis, issuePriority, labelStrategy, statedLevels } from './signals.js'
import { findTaskItems, type FoundTaskItems } from './task-items.js'
import { fileWork } from './file-work.js'
import { repositoryFiles } from './task-draft.js'
import { readEpic, referencedIssue, uncoveredAcceptance, type Epic, type RepoName } from './epic.js'
import { isBugReport } from './templates.js'
import { statesDocsDefect, statesUnchangedBehaviour } from './block-roles.js'
import { leftOutOf } from './coverage.js'
import { shortTitle, squash } from './text.js'
import type { IssueDocument, PlannerOutput } from './types.js'

export interface BuiltinOptions {
  /** Solution sequence number: `SOL-ISS-<n>-<seq>`. Default 1. */
  seq?: number
  /** `created_at`; left out when not given, so the same issue always gives the same plan. */
  now?: string
  /**
   * The repository's tracked files (`git ls-files`): a path the issue names is then a file to change only when it
   * is one of them or the task creates it. Without them, a path must look like one (an extension, or a source folder).
   */
  repoFiles?: readonly string[]
}

/**
 * The built-in planner: offline and deterministic (the same issue gives byte-identical output).
 * Reads the issue's markdown — task items, dependencies, file paths, acceptance criteria,
 * verification commands, definition of done — into a solution, and says in `notes` what it
 * inferred and what it could not find. The steps: markdown → sections (`markdown.ts`) → task items
 * (`task-items.ts`, `task-draft.ts`) and outcomes (`outcomes.ts`) → tasks with ids and dependencies
 * (`planned-tasks.ts`) → outcomes given to tasks (`assign.ts`) → priority and analysis (`signals.ts`).
 */
export function builtinPlan(issue: IssueDocument, options: BuiltinOptions = {}): PlannerOutput {
  const sections = readMarkdown(issue.body)
  const repo = repositoryOf(issue)
  const epic = readEpic(issue.body, repo)
  const security = isSecurityReport(issue.title, issue.labels, issue.body)
  const bug = security || isBugReport(issue, sections)
  const facts = bug ? bugFacts(sections) : undefined
  const tracked = options.repoFiles ? repositoryFiles(options.repoFiles) : undefined
  const listed = findTaskItems(sections, { isIssueReference: (text) => epic !== undefined && referencedIssue(text, repo) !== undefined, numberedSteps: !bug })
  // No task list: the work the prose proposes, file by file.
  const proposed = listed.source === 'none' && !epic ? fileWork(sections, { bug, isRepositoryPath: (path) => /\.[A-Za-z0-9]+$/.test(path) || tracked?.resolve(path) !== undefined }) : undefined
  // An epic's own acceptance items that no child covers are its own work.
  const own = epic && !listed.items.length ? uncoveredAcceptance(sections, epic, repo) : []
  const found: FoundTaskItems = proposed?.items.length
    ? { ...listed, source: 'prose', items: proposed.items }
    : own.length
      ? { ...listed, source: 'section', items: own.map((item) => ({ item, after: [] })) }
      : listed
  const alreadyDone = found.done.map((item) => shortTitle(squash(item.head.plain)))
  const doneChildren = (epic?.children ?? []).filter((c) => c.done).map((c) => `#${c.number}${c.title ? ` ${c.title}` : ''}`)
  if (epic && !found.items.length) return epicOnly(epic, [...alreadyDone, ...doneChildren])
  if (found.source === 'checklist' && !found.items.length) return everythingDone(alreadyDone)
  if (found.source === 'none' && (found.controls || selfDescribedPanel(sections))) return controlPanel(found.controls)
  const outcomes = readOutcomes(sections, { bug })
  if (proposed?.statements.length) outcomes.criteria.push(...proposed.statements.map((s) => ({ text: s.text, refs: s.task === undefined ? [] : [`T${s.task + 1}`], paths: [] })))
  const description = issueDescription(sections, issue)
  // Nothing but a title of a word or two (an unfilled template under "Add"): too little to plan from.
  if (!found.items.length && description.fromTitle && titleWords(issue.title).length < TOO_SHORT_TITLE)
    return tooVague(questionsForReporter({ bug, tasks: [], outcomes, sections }))
  const { tasks, resolve, notes: labelNotes } = planTasks(issue, sections, found, facts, tracked)
  const questions = questionsForReporter({ bug, tasks, outcomes, sections })
  // A bug report that states no expected result is still checked against itself: the error or the steps no longer reproduce.
  const inferred = facts && !outcomes.criteria.length ? reportCriteria(facts) : []
  outcomes.criteria.push(...inferred.map((text) => ({ text, refs: [], paths: [] })))
  const assignNotes = assignOutcomes(tasks, outcomes, resolve)
  const notes = [...taskSourceNotes(found, tasks, alreadyDone), ...labelNotes, ...assignNotes, ...missingNotes(tasks, outcomes, finalTasks(tasks))]
  const restated = restateItems(tasks, found.source !== 'none')
  if (restated.length) notes.push(`no criterion stated for ${restated.join(', ')}: ${restated.length === 1 ? 'its title stands' : 'their titles stand'} as the criterion, for a person to judge`)
  const leftOut = leftOutOf(sections, tasks, { done: alreadyDone, inferredCriteria: inferred })
  for (const l of leftOut) notes.push(`left out: "${l.item}" (${l.reason})`)
  if (inferred.length) notes.push(`no expected behaviour stated: checked by what the report shows (${inferred.map((c) => `"${c}"`).join(', ')})`)

  const stated = statedLevels(textLines(sections))
  const { priority, source: prioritySource } = issuePriority(issue.labels, stated.priority)
  notes.push(`priority ${priority} (${prioritySource})`)
  const files = tasks.flatMap((t) => t.files)
  const analysis = inferAnalysis({ taskCount: tasks.length, files, labels: issue.labels, stated, security, content: `${issue.title}\n${issue.body}` })
  notes.push(`analysis: ${analysis.reasons.join('; ')}`)
  if (description.fromTitle) notes.push('no description paragraph: the issue title describes the solution')

  // Work that says users see no change is a refactor, even under a feature label (a cleanup filed as an enhancement).
  const labelled = labelStrategy(issue.labels)
  const unchanged = !bug && (!labelled || labelled === 'feature') && statesUnchangedBehaviour(sections)
  const strategy = unchanged ? 'refactor' : labelled ?? (statesDocsDefect(sections) && onlyDocuments(tasks.flatMap((t) => t.files.slice(0, 1))) ? 'docs' : bug ? 'bugfix' : onlyDocuments(files) ? 'docs' : undefined)
  const relevantFiles = unique(files.map((f) => f.path))
  const raw = {
    id: solutionId(issue.number, options.seq ?? 1),
    issue_id: issueId(issue.number),
    description: description.text,
    ...(strategy ? { strategy_type: strategy } : {}),
    ...(options.now !== undefined ? { created_at: options.now } : {}),
    tasks: tasks.map((t) => writeTask(t, priority, issue, bug)),
    ...(alreadyDone.length ? { already_done: alreadyDone } : {}),
    ...(relevantFiles.length || outcomes.constraints.length
      ? { exploration_context: { relevant_files: relevantFiles, patterns: [], integration_points: [], constraints: outcomes.constraints } }
      : {}),
    analysis: { risk: analysis.risk, ...(analysis.riskReason ? { risk_reason: analysis.riskReason } : {}), impact: analysis.impact, complexity: analysis.complexity },
    ...(leftOut.length ? { left_out: leftOut } : {}),
    is_bound: false,
  }
  if (epic) notes.push(epicNote(epic))
  const done = [...alreadyDone, ...doneChildren]
  return { planner: 'builtin', raw, notes, ...(questions.length ? { questions } : {}), ...(done.length ? { alreadyDone: done } : {}), ...(epic ? { epic } : {}) }
}

/** The task in the canonical form; commands are also written `Run: <command>` in the verification. */
function writeTask(task: PlannedTask, priority: Priority, issue: IssueDocument, bug: boolean): TaskInput {
  const commands = unique(task.commands)
  const links = linkCriteria(unique(task.criteria), commands)
  return {
    id: task.id,
    title: task.title,
    action: task.action,
    type: taskType(task, bug),
    priority,
    effort: inferEffort(priority, task.files.length),
    description: task.description,
    files: task.files,
    implementation: task.implementation,
    test: { commands, unit: [], integration: [] },
    convergence: {
      criteria: unique(task.criteria),
      verification: [...commands.map((c) => `Run: ${c}`), ...unique(task.manualChecks)].join('\n'),
      definition_of_done: unique(task.definitionOfDone).join(' '),
      ...(links.length ? { criteria_commands: links } : {}),
    },
    depends_on: task.dependencies,
    evidence: unique(task.evidence),
    source: { tool: 'converge/builtin', session_id: issueId(issue.number), original_id: task.labels[0] ?? task.id },
  }
}

/**
 * From the action when it says it (Fix, Refactor, Test, "Add tests …"); a bug report's work is a fix
 * unless its action says otherwise; else the seed's keyword inference on the title.
 */
function taskType(task: PlannedTask, bug: boolean): TaskType {
  if (task.action === 'Fix') return 'fix'
  if (task.action === 'Refactor') return 'refactor'
  if (task.action === 'Test' || /^\S+\s+(?:(?:unit|integration|e2e|end-to-end|regression|snapshot)\s+)?tests?\b/i.test(task.title))
    return 'testing'
  if (bug) return 'fix'
  return inferTaskType(task.title)
}

/**
 * A task the issue wrote out as work (an item of its list, or a title task whose files the issue names) but gave no
 * criterion: its own words are what a person checks, so its title stands as the criterion (the quality gate says it
 * only repeats the title, and the plan is `review` at best without a command). A title task that names no file is
 * left without: the issue is too thin to say what done means, and the gate asks the reporter.
 */
function restateItems(tasks: PlannedTask[], fromItems: boolean): string[] {
  const restated: string[] = []
  for (const task of tasks)
    if (!task.criteria.length && (fromItems || task.files.length)) {
      task.criteria.push(task.title)
      restated.push(task.id)
    }
  return restated
}

/** Characters of a title below which, with no text of its own, an issue says too little to plan ("Add", "Fix bug"). */
const TOO_SHORT_TITLE = 8

/** What a bug report without an expected result shows that the fix must end: the error it throws, else what its steps reproduce. */
function reportCriteria(facts: BugFacts): string[] {
  if (facts.error) return [`No longer throws ${facts.error}`]
  return facts.steps.length ? ['Following the steps to reproduce no longer shows the problem'] : []
}

/** An issue that says it is a list a tool keeps ("This issue lists the updates and detected dependencies"). */
const PANEL = /^this issue (?:lists|provides|contains|shows|tracks|collects|summari[sz]es)\b.{0,80}\b(?:updates?|dependencies|alerts?|runs?|statuses)\b/i

function selfDescribedPanel(sections: readonly Section[]): boolean {
  const first = sections.flatMap((s) => s.blocks).find((b) => b.kind === 'paragraph')
  return first?.kind === 'paragraph' && PANEL.test(first.plain.trim())
}

/** A bot's panel: its checkboxes are controls ("tick a checkbox below to rebase") and it asks for no change. */
function controlPanel(controls: number): PlannerOutput {
  const boxes = controls ? `its ${controls} checkbox${controls === 1 ? ' is a control' : 'es are controls'} to tick, not work` : 'it is a list a tool keeps'
  return {
    planner: 'builtin',
    raw: undefined,
    notes: [`a bot's panel: ${boxes}`],
    error: {
      code: 'nothing_to_plan',
      path: '(issue)',
      message: `The issue is a bot's panel (${boxes}) and asks for no change: there is nothing to plan`,
      hint: 'Plan the issues or pull requests the panel lists, or write the change wanted as a task list',
    },
  }
}

/** An issue with no words of its own (a title of tags only, a template left unfilled): what the reporter should add. */
function tooVague(questions: string[]): PlannerOutput {
  return {
    planner: 'builtin',
    raw: undefined,
    notes: ['the issue has no title words and no text of its own (an unfilled template): nothing to plan from'],
    ...(questions.length ? { questions } : {}),
    error: {
      code: 'too_vague',
      path: '(issue)',
      message: `The issue says nothing to plan from: its title is a word or two at most and it has no text of its own${questions.length ? `; it needs ${questions.join(', ')}` : ''}`,
      hint: 'Give the issue a title that says what is wrong or wanted, and fill in the template',
    },
  }
}

/** Every item of the issue's task list is ticked: nothing is left to plan, and the plan says so. */
function everythingDone(done: string[]): PlannerOutput {
  const list = done.map((title) => `"${title}"`).join(', ')
  return {
    planner: 'builtin',
    raw: undefined,
    alreadyDone: done,
    notes: [`already done (ticked in the issue): ${list}`],
    error: {
      code: 'nothing_to_plan',
      path: '(issue)',
      message: `Every item of the issue's task list is ticked as done (${done.length}): there is nothing left to plan`,
      hint: 'Untick the items that still need work, add new ones, or close the issue',
    },
  }
}

/**
 * The issue's repository, for references written as URLs or `owner/repo#n`: from its URL, else the one
 * repository every issue URL in its text points to (a local issue file knows no URL).
 */
function repositoryOf(issue: IssueDocument): RepoName | undefined {
  const own = /github\.com\/([\w.-]+)\/([\w.-]+)\/issues\/\d+/.exec(issue.url ?? '')
  if (own) return { owner: own[1]!, repo: own[2]! }
  const named = new Set([...issue.body.matchAll(/https?:\/\/github\.com\/([\w.-]+)\/([\w.-]+)\/issues\/\d+/g)].map((m) => `${m[1]}/${m[2]}`.toLowerCase()))
  if (named.size !== 1) return undefined
  const [owner, repo] = [...named][0]!.split('/')
  return { owner: owner!, repo: repo! }
}

/** An epic with no work of its own: its children are planned as their own issues, nothing here. */
function epicOnly(epic: Epic, done: string[]): PlannerOutput {
  const open = epic.children.filter((c) => !c.done).map((c) => `#${c.number}`)
  return {
    planner: 'builtin',
    raw: undefined,
    epic,
    ...(done.length ? { alreadyDone: done } : {}),
    notes: [epicNote(epic)],
    error: {
      code: 'epic',
      path: '(issue)',
      message: open.length
        ? `This issue is an epic: its work is in ${open.join(', ')}, each planned as its own issue`
        : `This issue is an epic whose ${epic.children.length} issues are all ticked as done: there is nothing left to plan`,
      hint: open.length ? `Plan the child issues (${open.join(', ')}); this issue completes when they do` : 'Close the epic, or add the work that is still open',
    },
  }
}

function epicNote(epic: Epic): string {
  const children = epic.children.map((c) => `#${c.number}${c.done ? ' (done)' : ''}`).join(', ')
  return `an epic of ${epic.children.length} issue${epic.children.length === 1 ? '' : 's'}${epic.ordered ? ', in order' : ''}: ${children}`
}

/** Every file the plan names is documentation (Markdown, text, docs/): the work is documentation. */
function onlyDocuments(files: readonly { path: string }[]): boolean {
  return files.length > 0 && files.every((f) => /\.(?:md|mdx|markdown|rst|adoc|txt)$/i.test(f.path) || /^docs?\//i.test(f.path))
}

/** Lines of paragraphs and list items, for `Risk: high`-style statements. */
function textLines(sections: readonly Section[]): string[] {
  const itemLines = (items: readonly ListItem[]): string[] => items.flatMap((i) => [i.head.plain, ...itemLines(i.children)])
  return sections.flatMap((s) =>
    s.blocks.flatMap((b) => (b.kind === 'paragraph' ? b.plain.split('\n') : b.kind === 'list' ? itemLines(b.items) : [])),
  )
}

function unique(items: readonly string[]): string[] {
  return [...new Set(items.map((s) => s.trim()).filter(Boolean))]
}
