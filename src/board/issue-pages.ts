/**
 * The issues' pages of a part of the board, the work each thread making the board does (pages-worker.ts): their
 * plans parsed first (their sizes decide which issues' tasks are shown), then each issue parsed, built into its data
 * and its page, and its outputs let go before the next issue's are parsed, so no thread holds a thousand execution
 * records (most of the state's bytes) parsed at once.
 */
import type { RunState } from '../model/index.js'
import { boardIssue, tasksShown, withoutOutputs, type BoardIssue } from './data.js'
import type { GraphLayout } from './graph.js'
import { parseIssueTexts, parsePlanText, type IssueTexts } from './input.js'
import { issueScript } from './page.js'

/** The issue's page (`issues/<n>.js`), its task graph laid out by `layout`. */
export function issuePage(issue: BoardIssue, layout: GraphLayout): string {
  return issueScript(issue, issue.tasks.length ? layout.svg(issue.number, issue.tasks) : '')
}

export interface IssuePages {
  /** The issues' data as `board.json` holds it: without command outputs (those are in the pages). */
  issues: BoardIssue[]
  /** Each issue's page (`issues/<n>.js`), by issue number. */
  pages: Array<[number, string]>
}

export class IssuePagesMaker {
  private readonly plans

  constructor(private readonly run: RunState | undefined, private readonly texts: IssueTexts[]) {
    this.plans = texts.map(parsePlanText)
  }

  /** The task budget these issues leave to the issues after them, when they start with `budget`. */
  budgetLeft(budget?: number): number {
    return tasksShown(this.sizes(), budget).left
  }

  /** Their data and pages, the task budget they start with `budget` (the board's whole budget by default). */
  make(layout: GraphLayout, budget?: number): IssuePages {
    const { shown } = tasksShown(this.sizes(), budget)
    const issues: BoardIssue[] = []
    const pages: Array<[number, string]> = []
    this.texts.forEach((texts, i) => {
      const issue = boardIssue(parseIssueTexts(texts, this.plans[i]), this.run, shown[i]!)
      pages.push([issue.number, issuePage(issue, layout)])
      issues.push(withoutOutputs(issue))
    })
    return { issues, pages }
  }

  private sizes(): number[] {
    return this.plans.map((plan) => plan.value?.tasks.length ?? 0)
  }
}
