import type { Section } from './markdown.js'

/** What a section of an issue is for, read from its heading. */
export type SectionRole = 'tasks' | 'criteria' | 'done' | 'verification' | 'constraints' | 'context'

/**
 * First match wins, so "Test plan" is verification and not a task list, "Steps to reproduce" is
 * context, and "Definition of done" is not read as acceptance criteria.
 */
const ROLE_PATTERNS: ReadonlyArray<readonly [SectionRole, RegExp]> = [
  ['done', /definition of done|\bdod\b|完成标准|完成定义/i],
  ['criteria', /acceptance|success criteria|exit criteria|验收/i],
  ['context', /reproduc|\brepro\b|expected|actual|environment|screenshot|\blogs?\b|复现|预期|实际|环境/i],
  ['verification', /verif|how to test|\btesting\b|test plan|^tests?$|验证|测试/i],
  ['constraints', /constraint|non-goals?|out of scope|约束|限制/i],
  ['tasks', /\btasks?\b|\bsteps?\b|\bplan\b|implementation|\bto-?do\b|checklist|work items?|任务|步骤|计划|实施/i],
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
export const NOT_TASKS: ReadonlySet<SectionRole> = new Set(['criteria', 'done', 'verification', 'constraints', 'context'])
