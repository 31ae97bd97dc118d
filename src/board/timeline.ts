/** An issue's timeline, from its `events.md` (headings `## <time> — <who>: <what>`, then details). Pure. */

export interface TimelineEntry {
  at: string
  /** `ISS-42` for events of the issue, `T2` for a task's. */
  subject: string
  what: string
  /** The event's first detail line (`**Status**: COMPLETED`, `**Approved by**: @ana …`), markdown emphasis removed. */
  detail: string
}

const HEADING = /^## (\S+) — ([^:\n]+): (.*)$/

export function readTimeline(events: string | undefined): TimelineEntry[] {
  if (!events) return []
  const entries: TimelineEntry[] = []
  let current: TimelineEntry | undefined
  for (const line of events.split('\n')) {
    const heading = HEADING.exec(line)
    if (heading) {
      current = { at: heading[1]!, subject: heading[2]!.trim(), what: heading[3]!.trim(), detail: '' }
      entries.push(current)
    } else if (current && !current.detail && line.trim() && !line.startsWith('---')) {
      current.detail = line.replace(/\*\*/g, '').trim().slice(0, 300)
    }
  }
  return entries
}
