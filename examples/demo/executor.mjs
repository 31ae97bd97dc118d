/**
 * The executor of `converge demo`: a SCRIPTED STAND-IN for an agent CLI such as Claude Code, Codex or aider.
 *
 * A real executor reads the task prompt (`$CONVERGE_PROMPT_FILE`), edits the repository and may write a report;
 * Converge then runs the task's verification commands, and feeds their failures back for the next attempt
 * (`$CONVERGE_FEEDBACK_FILE`). This script plays that part without a model, a network or an API key: it knows
 * the answers to exactly one issue, `examples/demo/issue.md`, and writes them. It decides what to do from the
 * planned task in `$CONVERGE_TASK_FILE` — the paths in its `files[]` — never from task ids or their order, which
 * are the planner's business; a task with none of the paths it knows makes it exit with 1.
 *
 * To show the develop → validate → debug loop, it makes one realistic mistake: the first time it writes
 * `src/slugify.js` it decomposes accented letters with `normalize('NFKD')` but forgets to drop the combining
 * marks, so `Crème brûlée` becomes `cre-me-bru-le-e` and the task's verification command fails. It fixes that
 * only when the feedback of the previous attempt names the failure, as an agent reading it would.
 *
 * Like an agent, it then checks the task's convergence criteria (read from the task) it knows how to check, and
 * writes the verdicts to `$CONVERGE_RESULT_FILE` (`{ criteria: [{ text, met, evidence }], summary }`); criteria it
 * cannot judge are left out of the report, for a person. Commands are judged by Converge, not by this report.
 *
 * Node built-ins only: `converge demo` runs from the bundled CLI, without node_modules.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { pathToFileURL } from 'node:url'

const repo = process.cwd()
const env = process.env
const task = JSON.parse(await readFile(required('CONVERGE_TASK_FILE'), 'utf8'))
const feedback = await readFile(required('CONVERGE_FEEDBACK_FILE'), 'utf8').catch(() => '')
const attempt = Number(env.CONVERGE_ATTEMPT ?? '1')
const log = (line) => console.log(`[demo executor] ${task.id} attempt ${attempt}: ${line}`)

/** What to do to each path this executor knows, as the plan names it. */
const RECIPES = {
  'src/slugify.js': writeSlugify,
  'src/truncate.js': () => write('src/truncate.js', TRUNCATE),
  'test/truncate.test.js': () => write('test/truncate.test.js', TRUNCATE_TEST),
  'test/slugify.test.js': () => append('test/slugify.test.js', "'Crème brûlée'", SLUGIFY_TEST_ADDITION),
  'README.md': () => append('README.md', 'truncate(', README_ADDITION),
}

/** Runs the recipes of the task's paths, then checks its criteria and writes the report. */
async function main() {
  const paths = (task.files ?? []).map((f) => f.path.replace(/^\.\//, ''))
  const unknown = paths.filter((p) => !(p in RECIPES))
  if (paths.length === unknown.length) {
    console.error(`The demo executor is scripted for examples/demo/issue.md only; it has no recipe for ${task.id} "${task.title}" (${paths.join(', ') || 'no files'}).`)
    process.exit(1)
  }
  if (unknown.length) log(`left alone (no recipe): ${unknown.join(', ')}`)
  const changed = []
  for (const path of paths.filter((p) => p in RECIPES)) if (await RECIPES[path]()) changed.push(path)

  // The report: the task's criteria this script can check, each checked against the files as they now are.
  const criteria = []
  for (const text of task.convergence?.criteria ?? []) {
    const check = CHECKS.find((c) => c.matches.test(text))
    if (!check) continue
    try {
      const evidence = await check.run()
      criteria.push({ text, met: evidence.ok, evidence: evidence.says })
    } catch (error) {
      criteria.push({ text, met: false, evidence: `${error?.name ?? 'Error'}: ${error?.message ?? error}` })
    }
  }
  if (env.CONVERGE_RESULT_FILE) {
    const summary = changed.length ? `Changed ${changed.join(', ')}` : 'Nothing to change'
    await writeFile(env.CONVERGE_RESULT_FILE, `${JSON.stringify({ criteria, summary }, null, 2)}\n`)
  }
  log(`${changed.length ? `wrote ${changed.join(', ')}` : 'nothing to change'}; criteria met ${criteria.filter((c) => c.met).length}/${criteria.length}`)
}

function writeSlugify() {
  // The fix comes from reading the feedback: the accented title's assertion failed.
  const told = /creme-brulee|cre-me-bru-le-e/.test(feedback) && /AssertionError|slugify/.test(feedback)
  if (!told) return write('src/slugify.js', SLUGIFY_FORGETS_MARKS)
  log('feedback: the accented title still slugs wrong — dropping the combining marks after NFKD')
  return write('src/slugify.js', SLUGIFY)
}

async function write(path, content) {
  const file = join(repo, path)
  const before = await readFile(file, 'utf8').catch(() => undefined)
  if (before === content) return false
  await mkdir(dirname(file), { recursive: true })
  await writeFile(file, content)
  return true
}

/** Adds `addition` to the end of the file, unless `marker` shows an earlier attempt did. */
async function append(path, marker, addition) {
  const before = await readFile(join(repo, path), 'utf8').catch(() => '')
  if (before.includes(marker)) return false
  return write(path, `${before.replace(/\n*$/, before ? '\n' : '')}${addition}`)
}

function required(name) {
  const value = env[name]
  if (!value) {
    console.error(`${name} is not set: this script is run by \`converge demo\` (or \`converge execute\`) as the executor.`)
    process.exit(2)
  }
  return value
}

/** The module as it is now on disk (each executor run is a new process, so nothing is cached between attempts). */
async function load(path) {
  return import(`${pathToFileURL(join(repo, path)).href}?attempt=${attempt}`)
}

function equal(call, actual, expected) {
  return { ok: actual === expected, says: `${call} returns ${JSON.stringify(actual)}${actual === expected ? '' : `, not ${JSON.stringify(expected)}`}` }
}

function all(...results) {
  return { ok: results.every((r) => r.ok), says: results.map((r) => r.says).join('; ') }
}

const CHECKS = [
  {
    matches: /slugify\('Crème brûlée'\)/,
    async run() {
      const { slugify } = await load('src/slugify.js')
      return all(equal("slugify('Crème brûlée')", slugify('Crème brûlée'), 'creme-brulee'), equal("slugify('Ça va?')", slugify('Ça va?'), 'ca-va'))
    },
  },
  {
    matches: /ASCII titles are unchanged/i,
    async run() {
      const { slugify } = await load('src/slugify.js')
      return equal("slugify('Hello, World!')", slugify('Hello, World!'), 'hello-world')
    },
  },
  {
    matches: /truncate\('hello wonderful world', 12\)/,
    async run() {
      const { truncate } = await load('src/truncate.js')
      return equal("truncate('hello wonderful world', 12)", truncate('hello wonderful world', 12), 'hello…')
    },
  },
  {
    matches: /truncate\('short', 12\)/,
    async run() {
      const { truncate } = await load('src/truncate.js')
      const samples = ['hello wonderful world', 'supercalifragilistic', 'a b c d e f', 'short', '']
      const tooLong = samples.flatMap((text) => [1, 3, 5, 12].filter((max) => truncate(text, max).length > max).map((max) => `truncate(${JSON.stringify(text)}, ${max})`))
      const short = equal("truncate('short', 12)", truncate('short', 12), 'short')
      return all(short, { ok: tooLong.length === 0, says: tooLong.length ? `longer than max: ${tooLong.join(', ')}` : `no result longer than max (${samples.length * 4} calls)` })
    },
  },
  {
    matches: /tests cover an accented title/i,
    async run() {
      const slugTests = await readFile(join(repo, 'test/slugify.test.js'), 'utf8')
      const truncTests = await readFile(join(repo, 'test/truncate.test.js'), 'utf8')
      const covered = {
        'an accented title': /slugify\('[^']*[À-ÿ][^']*'\)/.test(slugTests),
        'shorter than max': /shorter than max/.test(truncTests),
        'equal to max': /equal to max/.test(truncTests),
        'longer than max': /longer than max/.test(truncTests),
      }
      const missing = Object.keys(covered).filter((k) => !covered[k])
      return { ok: missing.length === 0, says: missing.length ? `no test for: ${missing.join(', ')}` : `tests for ${Object.keys(covered).join(', ')}` }
    },
  },
  {
    matches: /README shows one call/i,
    async run() {
      const readme = await readFile(join(repo, 'README.md'), 'utf8')
      const shows = (name) => new RegExp(`${name}\\([^)]*\\)\\s*//\\s*'`).test(readme)
      const missing = ['slugify', 'truncate'].filter((name) => !shows(name))
      return { ok: missing.length === 0, says: missing.length ? `no call with its result for ${missing.join(', ')}` : 'README.md shows slugify(…) and truncate(…) each with its result' }
    },
  },
]

// The files this executor writes: what an agent would have written for the issue.

const SLUGIFY_FORGETS_MARKS = `/** Turns a title into a URL slug: lower case, accented letters as plain ASCII, words joined by dashes. */
export function slugify(text) {
  return text
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
}
`

const SLUGIFY = `/** Turns a title into a URL slug: lower case, accented letters as plain ASCII, words joined by dashes. */
export function slugify(text) {
  return text
    .normalize('NFKD')
    .replace(/[\\u0300-\\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
}
`

const TRUNCATE = `/**
 * Shortens \`text\` to at most \`max\` characters: cut at the last space that leaves room for the ellipsis,
 * mid-word when there is none, and end with \`…\`. Text that fits is returned unchanged.
 */
export function truncate(text, max) {
  if (text.length <= max) return text
  if (max < 1) return ''
  const room = text.slice(0, max - 1)
  const space = room.lastIndexOf(' ')
  return \`\${(space > 0 ? room.slice(0, space) : room).trimEnd()}…\`
}
`

const TRUNCATE_TEST = `import { test } from 'node:test'
import assert from 'node:assert/strict'
import { truncate } from '../src/truncate.js'

test('returns text shorter than max unchanged', () => {
  assert.equal(truncate('short', 12), 'short')
})

test('returns text equal to max unchanged', () => {
  assert.equal(truncate('twelve chars', 12), 'twelve chars')
})

test('cuts text longer than max at a word boundary', () => {
  assert.equal(truncate('hello wonderful world', 12), 'hello…')
})

test('cuts mid-word when the first max - 1 characters hold no space', () => {
  assert.equal(truncate('supercalifragilistic', 6), 'super…')
})

test('never returns more than max characters', () => {
  for (let max = 1; max <= 25; max++) assert.ok(truncate('hello wonderful world', max).length <= max)
})
`

const SLUGIFY_TEST_ADDITION = `
test('turns accented letters into plain ASCII', () => {
  assert.equal(slugify('Crème brûlée'), 'creme-brulee')
  assert.equal(slugify('Ça va?'), 'ca-va')
})
`

const README_ADDITION = `- \`truncate(text, max)\`: \`text\` shortened to at most \`max\` characters, on a word boundary, ending with \`…\`.

\`\`\`js
slugify('Crème brûlée') // 'creme-brulee'
truncate('hello wonderful world', 12) // 'hello…'
\`\`\`
`

await main()
