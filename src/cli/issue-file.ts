import { readFile, stat } from 'node:fs/promises'
import { basename } from 'node:path'
import { parse as parseYaml } from 'yaml'
import type { IssueDocument } from '../planners/types.js'
import { InputError, UsageError } from './usage-error.js'

/** The largest issue file read: 65,536 characters of up to 4 bytes each, and front matter. */
const ISSUE_FILE_BYTES = 4 * 65_536 + 4_096

/**
 * A local issue: markdown, optionally with YAML front matter (`number`, `title`, `labels`, `author`).
 * Without a title in front matter the first `# heading` is the title. The number is `--number`, else front matter's
 * `number:`, else a file name that says it (`42.md`, `#42 Fix slugs.md`, `GH-42.md`, `issue-42.md`); digits that
 * merely occur in a name (`2024-notes.md`) are no issue number, and without one the file is refused: a guess would
 * put the plan on another issue's state.
 */
export async function readIssueFile(path: string, overrides: { number?: number } = {}): Promise<IssueDocument> {
  const size = (await stat(path).catch((error: NodeJS.ErrnoException) => {
    throw error.code === 'ENOENT' ? new UsageError(`--issue-file ${path}: no such file`) : error
  })).size
  // GitHub's limit is 65,536 characters (at most 4 bytes each): a larger file is no issue, and is not read whole.
  if (size > ISSUE_FILE_BYTES) throw new InputError(`${path} is ${size.toLocaleString('en-US')} bytes; an issue holds at most 65,536 characters (GitHub's limit): split it into smaller issues`)
  const text = issueText(path, await readFile(path).catch((error: NodeJS.ErrnoException) => {
    throw error.code === 'ENOENT' ? new UsageError(`--issue-file ${path}: no such file`) : error
  }))
  const front = /^---\n([\s\S]*?)\n---\n?/.exec(text)
  const meta = front ? (parseYaml(front[1]!) as Record<string, unknown> | null) ?? {} : {}
  let body = front ? text.slice(front[0].length) : text
  let title = typeof meta.title === 'string' ? meta.title : undefined
  if (!title) {
    const heading = /^\s*#\s+(.+)\n?/.exec(body)
    if (heading) {
      title = heading[1]!.trim()
      body = body.slice(heading[0].length)
    }
  }
  const number = overrides.number ?? (typeof meta.number === 'number' ? meta.number : numberInName(basename(path)))
  if (number === undefined)
    throw new UsageError(`${path}: which issue is it? Give its number: --number <n>, number: <n> in front matter, or a file name like 42.md, "#42 title.md" or GH-42.md`)
  if (!Number.isInteger(number) || number < 1) throw new InputError(`${path}: issue number must be a positive integer`)
  const labels = Array.isArray(meta.labels) ? meta.labels.map(String) : []
  if (!title && !body.trim()) throw new InputError(`${path} has no title and no text: write the issue (a # title, then what should change) and plan it again`)
  return {
    number,
    title: title ?? basename(path).replace(/\.md$/, ''),
    body: body.trim(),
    labels,
    ...(typeof meta.author === 'string' ? { author: meta.author } : {}),
  }
}

/** The issue number a file name states: the whole name (`42.md`), or after `#`, `GH-`, `ISS-` or `issue-`. */
export function numberInName(name: string): number | undefined {
  const stem = name.replace(/\.(?:md|markdown|txt)$/i, '')
  const stated = /^(\d+)$/.exec(stem) ?? /(?:^|[^A-Za-z0-9])(?:#|GH-|ISS-|issue[-_ ]?)(\d+)(?!\d)/i.exec(stem)
  return stated ? Number(stated[1]) : undefined
}

/** The file's text; an empty file, or one that is not UTF-8 text (a binary), is refused before anything is planned. */
function issueText(path: string, bytes: Buffer): string {
  let text: string
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    throw new InputError(`${path} is not a text file: an issue file is markdown (UTF-8)`)
  }
  if (text.includes('\0')) throw new InputError(`${path} is not a text file: an issue file is markdown (UTF-8)`)
  if (!text.trim()) throw new InputError(`${path} is empty: write the issue (a # title, then what should change) and plan it again`)
  return text.replace(/\r\n/g, '\n')
}
