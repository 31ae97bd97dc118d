/** Helpers of the CLI tests: running `runCli` with its output captured, and a small repository with a two-task plan. */
import { execFileSync } from 'node:child_process'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { runCli } from '../../src/cli/cli.js'
import type { CliIo } from '../../src/cli/io.js'

export const ROOT = resolve(import.meta.dirname, '..', '..')

export interface CliRun {
  code: number
  /** stdout, its writes joined by newlines */
  out: string
  err: string
}

/** Runs the CLI in process; `io` adds to the captured streams (a terminal's flags, a raw `write`). */
export async function converge(args: string[], io: Partial<CliIo> = {}): Promise<CliRun> {
  const out: string[] = []
  const err: string[] = []
  const code = await runCli(args, { out: (t) => out.push(t), err: (t) => err.push(t), ...io }, ROOT)
  return { code, out: out.join('\n'), err: err.join('\n') }
}

/** Runs the CLI in process, stdout and stderr in one text, as a terminal shows them. */
export async function cli(...args: string[]): Promise<{ code: number; out: string }> {
  const lines: string[] = []
  const code = await runCli(args, { out: (t) => lines.push(t), err: (t) => lines.push(t) }, ROOT)
  return { code, out: lines.join('\n') }
}

export interface GreetingsRepo {
  dir: string
  repo: string
  git: (...args: string[]) => string
  /** The issue file of issue 7: T1 writes hello.txt, T2 (after T1) world.txt. */
  issue: string
  /** `node '<path>'`: writes the word of the task's description to each of its files. */
  executor: string
  cleanup: () => Promise<void>
}

export interface CleanRepo {
  /** The temporary directory holding the repository (and whatever the test writes beside it). */
  dir: string
  repo: string
  git: (...args: string[]) => string
  cleanup: () => Promise<void>
}

/** A temporary directory with a repository in `repo/`: `main` at one commit of a README, nothing else. */
export async function cleanRepo(readme = '# greetings\n'): Promise<CleanRepo> {
  const dir = await mkdtemp(join(tmpdir(), 'converge-cli-'))
  const repo = join(dir, 'repo')
  const git = (...args: string[]) =>
    execFileSync('git', ['-C', repo, '-c', 'commit.gpgsign=false', '-c', 'user.name=Test', '-c', 'user.email=test@example.com', ...args]).toString().trim()
  await mkdir(repo)
  git('init', '--quiet', '--initial-branch=main')
  await writeFile(join(repo, 'README.md'), readme)
  git('add', 'README.md')
  git('commit', '--quiet', '-m', 'initial')
  return { dir, repo, git, cleanup: () => rm(dir, { recursive: true, force: true }) }
}

/** A repository with `main` at one clean commit, issue 7 with an explicit plan of two tasks, and an executor script. */
export async function greetingsRepo(): Promise<GreetingsRepo> {
  const { dir, repo, git, cleanup } = await cleanRepo()
  const issue = join(dir, '7.md')
  await writeFile(issue, issueText('Greetings', [['T1', 'hello.txt', 'hello', []], ['T2', 'world.txt', 'world', ['T1']]]))
  const script = join(dir, 'executor.mjs')
  await writeFile(script, [
    "import { readFileSync, writeFileSync } from 'node:fs'",
    "const task = JSON.parse(readFileSync(process.env.CONVERGE_TASK_FILE, 'utf8'))",
    "for (const file of task.files) writeFileSync(file.path, task.description.split(' ')[1] + '\\n')",
  ].join('\n'))
  return { dir, repo, git, issue, executor: `node '${script}'`, cleanup }
}

/** An issue file with an explicit plan: per task its id, the file it writes, the word, and its dependencies. */
export function issueText(title: string, tasks: Array<[string, string, string, string[]]>, frontMatter = ''): string {
  const plan = {
    description: title,
    analysis: { risk: 'low', impact: 'low', complexity: 'low' },
    tasks: tasks.map(([id, file, word, depends]) => ({
      id, title: `Write ${file}`, action: 'Create', description: `Writes ${word} to ${file}`, depends_on: depends,
      files: [{ path: file, action: 'create', changes: [`Write ${word}`] }], implementation: [`Write ${word} to ${file}`],
      test: { commands: [`grep -q ${word} ${file}`] },
      convergence: { criteria: [`${file} says ${word}`], verification: '', definition_of_done: `Readers see ${word}` },
    })),
  }
  return `${frontMatter ? `---\n${frontMatter}\n---\n` : ''}# ${title}\n\n\`\`\`json\n${JSON.stringify(plan)}\n\`\`\`\n`
}
