/**
 * The runner's file commands are Converge's. A step talks to the runner through files whose paths are in its
 * environment — `GITHUB_ENV` (variables of the later steps), `GITHUB_PATH` (their PATH), `GITHUB_OUTPUT`,
 * `GITHUB_STATE`, `GITHUB_STEP_SUMMARY` — and the runner reads them when the step ends. Converge never gives those
 * paths to the commands it starts, but they sit in a predictable place (`$RUNNER_TEMP/_runner_file_commands/`), and
 * any command of the same user can append to them: a planner command, which runs before any approval, could set
 * `NODE_OPTIONS=--require=…` for every later step of the job.
 *
 * So Converge takes each file's content when it starts, puts every file back to what it had plus what Converge
 * itself wrote (through `@actions/core`) before the step ends, and says what it removed.
 */
import { open, rm, stat, writeFile } from 'node:fs/promises'

export const FILE_COMMANDS = ['GITHUB_ENV', 'GITHUB_PATH', 'GITHUB_OUTPUT', 'GITHUB_STATE', 'GITHUB_STEP_SUMMARY'] as const

/** The most of a file Converge keeps to compare and put back: the runner's own files start empty for each step. */
const KEPT_BYTES = 1 << 20
/** The most of what someone else appended that is read to say what it was. */
const SHOWN_BYTES = 64 << 10

interface Kept {
  name: (typeof FILE_COMMANDS)[number]
  path: string
  content: Buffer | undefined
}

export interface Removed {
  name: string
  /** Bytes written by someone other than Converge, now gone. */
  bytes: number
  /** What they set, when it can be told: variable names (`GITHUB_ENV`, `GITHUB_OUTPUT`, `GITHUB_STATE`), or PATH entries. */
  what: string[]
}

export class FileCommandGuard {
  private constructor(private readonly kept: Kept[]) {}

  /** Takes the content of every file command the environment names. */
  static async start(env: Readonly<Record<string, string | undefined>>): Promise<FileCommandGuard> {
    const kept: Kept[] = []
    for (const name of FILE_COMMANDS) {
      const path = env[name]
      // A file already larger than Converge keeps is not the runner's fresh one for this step: left alone.
      if (path && ((await sizeOf(path)) ?? 0) <= KEPT_BYTES) kept.push({ name, path, content: await readCapped(path) })
    }
    return new FileCommandGuard(kept)
  }

  /**
   * Puts every file back to the content it was last accepted with, and returns what was removed. Called once the
   * commands have run, and again at the very end.
   */
  async restore(): Promise<Removed[]> {
    const removed: Removed[] = []
    for (const file of this.kept) {
      const size = await sizeOf(file.path)
      const keptSize = file.content?.length
      const now = size === undefined ? undefined : await readCapped(file.path, keptSize ?? 0)
      if (size === keptSize && (now === undefined || now.equals(file.content!))) continue
      const kept = file.content !== undefined && now !== undefined && now.subarray(0, file.content.length).equals(file.content)
      const appended = now === undefined ? Buffer.alloc(0) : await readPart(file.path, kept ? file.content!.length : 0)
      removed.push({ name: file.name, bytes: Math.max(0, (size ?? 0) - (kept ? keptSize! : 0)), what: describe(file.name, appended.toString('utf8')) })
      // A new file in its place: whatever someone replaced it with (a symbolic link, say) is not written through.
      await rm(file.path, { force: true })
      if (file.content !== undefined) await writeFile(file.path, file.content, { flag: 'wx' })
    }
    return removed
  }

  /** The files' paths, to hide from the commands Converge starts. */
  paths(): string[] {
    return this.kept.map((f) => f.path)
  }

  /** Gives `env` the paths back (for `@actions/core`'s own writes), after they were hidden from the launch environment. */
  reinstate(env: NodeJS.ProcessEnv): void {
    for (const file of this.kept) env[file.name] = file.path
  }

  /** Converge wrote to the files itself (outputs, the job summary): what they hold now is Converge's. */
  async accept(): Promise<void> {
    for (const file of this.kept) file.content = await readCapped(file.path)
  }
}

async function sizeOf(path: string): Promise<number | undefined> {
  return (await stat(path).catch(() => undefined))?.size
}

/** The file's content up to {@link KEPT_BYTES} (or `atLeast`), undefined when there is none. */
async function readCapped(path: string, atLeast = 0): Promise<Buffer | undefined> {
  const handle = await open(path, 'r').catch(() => undefined)
  if (!handle) return undefined
  try {
    const buffer = Buffer.alloc(Math.max(KEPT_BYTES, atLeast) + 1)
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0)
    return buffer.subarray(0, bytesRead)
  } finally {
    await handle.close()
  }
}

async function readPart(path: string, from: number): Promise<Buffer> {
  const handle = await open(path, 'r')
  try {
    const buffer = Buffer.alloc(SHOWN_BYTES)
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, from)
    return buffer.subarray(0, bytesRead)
  } finally {
    await handle.close()
  }
}

/** The names `NAME=value` and `NAME<<delimiter` lines set, or the PATH entries added; at most 10. */
function describe(name: string, text: string): string[] {
  const lines = text.split('\n').map((l) => l.trim()).filter(Boolean)
  const what = name === 'GITHUB_PATH' ? lines : name === 'GITHUB_STEP_SUMMARY' ? [] : lines.flatMap((l) => /^([A-Za-z_][\w.-]*)(?:=|<<)/.exec(l)?.[1] ?? [])
  const unique = [...new Set(what)]
  return unique.length > 10 ? [...unique.slice(0, 10), `${unique.length - 10} more`] : unique
}

/** One sentence for the log and the job summary, or undefined when nothing was removed. */
export function describeRemoved(removed: readonly Removed[]): string | undefined {
  if (!removed.length) return undefined
  const parts = removed.map((r) => `${r.name} (${r.bytes} bytes${r.what.length ? `: ${r.what.map((w) => w.slice(0, 80)).join(', ')}` : ''})`)
  return `commands of this run wrote to the runner's file commands, which only Converge writes to: removed ${parts.join('; ')}. Later steps of the job run without them`
}
