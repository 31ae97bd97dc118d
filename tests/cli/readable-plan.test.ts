/**
 * The CLI as a new user meets it (issue 27's findings, each pinned): the plan readable where it is approved
 * (`show`, and `plan` printing the same), issue numbers never guessed from a file name, a re-plan that says what it
 * replaced, a plan file named as such, an empty repository refused with what to do, task commits by the user.
 */
import { execFileSync } from 'node:child_process'
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { agentProgram } from '../../src/agents/preflight.js'
import { InputError, UsageError } from '../../src/cli/usage-error.js'
import { numberInName } from '../../src/cli/issue-file.js'
import { groupFindings } from '../../src/report/plan-detail.js'
import type { Finding } from '../../src/model/index.js'
import { cleanRepo, converge, greetingsRepo, issueText } from './support.js'

describe('converge show --number <n>', () => {
  it('prints each task with its files, dependencies, criteria, commands and how each is checked, then the hash approve binds', async () => {
    const t = await greetingsRepo()
    try {
      const planned = await converge(['plan', '--issue-file', t.issue, '--repo', t.repo])
      const shown = await converge(['show', '--number', '7', '--repo', t.repo])
      expect(shown.code).toBe(0)
      for (const text of [planned.out, shown.out]) {
        expect(text).toMatch(/^ {2}T2 {2}Write world\.txt\n {6}depends on: T1\n {6}files:\n {8}create world\.txt: Write world$/m)
        expect(text).toContain("        - world.txt says world  [checked by: the agent's report, else a person]")
        expect(text).toContain('      commands (Converge runs each; exit code 0 passes):\n        $ grep -q world world.txt')
      }
      const { plan_hash: hash } = JSON.parse((await converge(['show', '--number', '7', '--repo', t.repo, '--json'])).out)
      expect(shown.out).toContain(`Plan hash ${hash} (not approved: converge approve --number 7 binds this hash)`)
      const approved = await converge(['approve', '--number', '7', '--repo', t.repo])
      expect(approved.out).toContain(hash)
      expect((await converge(['show', '--number', '7', '--repo', t.repo])).out).toMatch(new RegExp(`Plan hash ${hash} \\(approved by .+\\)$`, 'm'))
      const document = JSON.parse((await converge(['show', '--number', '7', '--repo', t.repo, '--json'])).out)
      expect(document).toMatchObject({ issue: 7, plan_hash: hash, approved: true, gate: 'pass', plan: { id: 'SOL-ISS-7-1' } })
      expect(document.plan.tasks.map((task: { id: string }) => task.id)).toEqual(['T1', 'T2'])
    } finally {
      await t.cleanup()
    }
  })

  it('says what to do for an issue it does not know', async () => {
    const t = await greetingsRepo()
    try {
      const unknown = await converge(['show', '--number', '9', '--repo', t.repo])
      expect(unknown).toMatchObject({ code: 1, err: 'ISS-9 is not known to Converge yet: converge plan --issue-file <issue.md> --number 9' })
    } finally {
      await t.cleanup()
    }
  })
})

describe("the gate's findings", () => {
  it('are grouped by rule: one entry, with the places where it recurs', async () => {
    const finding = (task: string): Finding => ({ rule: 'definition_of_done', severity: 'low', task_id: task, path: `tasks[${task.slice(1)}]`, message: `${task} has no definition of done`, fix: 'Say it' })
    const groups = groupFindings([...Array.from({ length: 34 }, (_, i) => finding(`T${i + 1}`)), { ...finding('T1'), rule: 'other', severity: 'high' }])
    expect(groups.map((g) => [g.rule, g.places.length])).toEqual([['definition_of_done', 34], ['other', 1]])

    const t = await cleanRepo()
    try {
      const issue = join(t.dir, '12.md')
      await writeFile(issue, '# Three things\n\n- [ ] Add `a.txt`\n- [ ] Add `b.txt`\n- [ ] Add `c.txt`\n')
      const { out } = await converge(['plan', '--issue-file', issue, '--repo', t.repo])
      const lines = out.split('\n')
      // Each kind of finding is listed once, however many tasks it concerns.
      const heads = lines.filter((line) => /^ {2}(critical|high|medium|low) /.test(line)).map((line) => line.replace(/T\d+/g, 'T'))
      expect(new Set(heads).size).toBe(heads.length)
      expect(out).toMatch(/the same in T2, T3 \(3 places in all\)/)
    } finally {
      await t.cleanup()
    }
  })
})

describe('issue numbers', () => {
  it('come from --number, front matter or a name that states one, never from digits a name happens to hold', () => {
    expect(['42.md', '#42 Fix slugs.md', 'GH-42.md', 'gh-42-fix.md', 'issue-42.md', 'ISS-42.md', 'issue 42.markdown'].map(numberInName)).toEqual(Array(7).fill(42))
    expect(['issue.md', '2024-notes.md', 'v2.md', 'notes-42.md', 'x42.md'].map(numberInName)).toEqual(Array(5).fill(undefined))
  })

  it('are asked for when a plain file name gives none, and nothing is written', async () => {
    const t = await cleanRepo()
    try {
      const issue = join(t.dir, 'issue.md')
      await writeFile(issue, '# Add a greeting\n\n- [ ] Add `hello.txt`\n')
      await expect(converge(['plan', '--issue-file', issue, '--repo', t.repo])).rejects.toThrow(
        new UsageError(`${issue}: which issue is it? Give its number: --number <n>, number: <n> in front matter, or a file name like 42.md, "#42 title.md" or GH-42.md`),
      )
      expect(t.git('branch', '--list', 'converge/state')).toBe('')
      await converge(['plan', '--issue-file', issue, '--number', '3', '--repo', t.repo])
      expect(JSON.parse(t.git('show', 'converge/state:.converge/issues/3/issue.json')).title).toBe('Add a greeting')
    } finally {
      await t.cleanup()
    }
  })

  it('of a recorded issue with another title are refused unless --replace says it is the same issue, retitled', async () => {
    const t = await cleanRepo()
    try {
      const [first, second] = [join(t.dir, 'first.md'), join(t.dir, 'second.md')]
      await writeFile(first, '---\nnumber: 5\n---\n# Add a greeting\n\n- [ ] Add `hello.txt`\n')
      await writeFile(second, '---\nnumber: 5\n---\n# Remove the farewell\n\n- [ ] Delete `bye.txt`\n')
      await converge(['plan', '--issue-file', first, '--repo', t.repo])
      const stateBefore = t.git('rev-parse', 'converge/state')
      const refused = converge(['plan', '--issue-file', second, '--repo', t.repo])
      await expect(refused).rejects.toThrow(InputError)
      await expect(converge(['plan', '--issue-file', second, '--repo', t.repo])).rejects.toThrow(
        `ISS-5 is recorded as "Add a greeting", and ${second} is "Remove the farewell". If it is the same issue, retitled, plan it again with --replace`,
      )
      expect(t.git('rev-parse', 'converge/state')).toBe(stateBefore)
      await converge(['plan', '--issue-file', second, '--repo', t.repo, '--replace'])
      expect(JSON.parse(t.git('show', 'converge/state:.converge/issues/5/issue.json')).title).toBe('Remove the farewell')
    } finally {
      await t.cleanup()
    }
  })
})

describe('planning again', () => {
  it('prints the new plan id and says that the old approval was dropped', async () => {
    const t = await greetingsRepo()
    try {
      await converge(['plan', '--issue-file', t.issue, '--repo', t.repo])
      await converge(['approve', '--number', '7', '--repo', t.repo])
      await writeFile(t.issue, issueText('Greetings', [['T1', 'hello.txt', 'hi', []]]))
      const { out } = await converge(['plan', '--issue-file', t.issue, '--repo', t.repo])
      expect(out).toMatch(/^Plan SOL-ISS-7-2 for ISS-7: 1 task in 1 wave$/m)
      expect(out).toMatch(/^Planned again: SOL-ISS-7-2 replaces SOL-ISS-7-1, and the approval of SOL-ISS-7-1 by .+ was dropped \(it was bound to that plan's hash\): read it with converge show --number 7, then converge approve --number 7$/m)
      expect(out).toContain('(not approved: converge approve --number 7 binds this hash)')
      const status = (await converge(['status', '--number', '7', '--repo', t.repo])).out
      expect(status).toMatch(/Plan SOL-ISS-7-2: 1 task, not approved/)
    } finally {
      await t.cleanup()
    }
  })

  it('from --plan-file names the file it read, not a comment', async () => {
    const t = await greetingsRepo()
    try {
      const planFile = join(t.dir, 'plan.md')
      await writeFile(planFile, issueText('Greetings', [['T1', 'hello.txt', 'hello', []]]))
      const bare = join(t.dir, '7-bare.md')
      await writeFile(bare, '---\nnumber: 7\n---\n# Greetings\n\nSee the plan.\n')
      const { out } = await converge(['plan', '--issue-file', bare, '--plan-file', planFile, '--repo', t.repo])
      expect(out).toContain(`read the \`\`\`json plan block on line 2 of --plan-file ${planFile}`)
      expect(out).not.toContain('the comment')
    } finally {
      await t.cleanup()
    }
  })
})

describe('converge execute', () => {
  it('refuses a repository without a commit with what to do, recording nothing of an execution', async () => {
    const t = await cleanRepo()
    try {
      const empty = join(t.dir, 'empty')
      await mkdir(empty)
      execFileSync('git', ['init', '--quiet', '--initial-branch=main', empty])
      const issue = join(t.dir, '7.md')
      await writeFile(issue, issueText('Greetings', [['T1', 'hello.txt', 'hello', []]]))
      await converge(['plan', '--issue-file', issue, '--repo', empty])
      await converge(['approve', '--number', '7', '--repo', empty])
      await expect(converge(['execute', '--number', '7', '--executor', 'none', '--repo', empty])).rejects.toThrow(
        new InputError(`--repo ${empty} has no commit yet: execute branches converge/issue-7 from your checked-out commit. Commit what the repository has first (git add -A && git commit -m "Initial commit"), then execute again`),
      )
      expect(execFileSync('git', ['-C', empty, 'show', 'converge/state:.converge/issues/7/issue.json']).toString()).toContain('"status": "planned"')
    } finally {
      await t.cleanup()
    }
  })

  it("commits each task as the user's git identity, as their own commits are", async () => {
    const t = await greetingsRepo()
    try {
      t.git('config', 'user.name', 'Ada Lovelace')
      t.git('config', 'user.email', 'ada@example.com')
      await converge(['plan', '--issue-file', t.issue, '--repo', t.repo])
      await converge(['approve', '--number', '7', '--repo', t.repo])
      expect((await converge(['execute', '--number', '7', '--executor', t.executor, '--repo', t.repo])).code).toBe(0)
      expect(t.git('log', '--format=%an <%ae>|%s', 'main..converge/issue-7').split('\n')).toEqual([
        'Ada Lovelace <ada@example.com>|T2: Write world.txt (ISS-7)',
        'Ada Lovelace <ada@example.com>|T1: Write hello.txt (ISS-7)',
      ])
    } finally {
      await t.cleanup()
    }
  })
})

describe('the preflight of an agent CLI', () => {
  afterEach(() => vi.unstubAllEnvs())

  it('names the program an executor or planner command starts', () => {
    expect(agentProgram('claude-code')).toMatchObject({ program: 'claude', preset: { install: 'npm install -g @anthropic-ai/claude-code' } })
    expect(agentProgram('node tools/executor.mjs')).toEqual({ program: 'node' })
    for (const value of ['none', 'FOO=1 node x.js', '$AGENT run']) expect(agentProgram(value)).toBeUndefined()
  })

  it('refuses execute before any attempt when the agent CLI is not installed, with its install line, recording nothing', async () => {
    const t = await greetingsRepo()
    try {
      await converge(['plan', '--issue-file', t.issue, '--repo', t.repo])
      await converge(['approve', '--number', '7', '--repo', t.repo])
      const stateBefore = t.git('rev-parse', 'converge/state')
      vi.stubEnv('PATH', '/nonexistent-converge-bin:/usr/bin:/bin')
      const refused = await converge(['execute', '--number', '7', '--executor', 'claude-code', '--repo', t.repo])
      expect(refused).toMatchObject({
        code: 1,
        err: 'Execution could not start: the executor claude-code runs `claude`, which is not installed here (command -v claude finds nothing on PATH): install it with `npm install -g @anthropic-ai/claude-code` and give it ANTHROPIC_API_KEY, then run this again',
      })
      const own = await converge(['execute', '--number', '7', '--executor', 'my-agent-xyz --task "$CONVERGE_TASK_FILE"', '--repo', t.repo])
      expect(own.err).toBe('Execution could not start: the executor runs `my-agent-xyz`, which is not on PATH here (command -v my-agent-xyz finds nothing): install it, or correct the command')
      expect(t.git('rev-parse', 'converge/state')).toBe(stateBefore)
      expect(t.git('branch', '--list', 'converge/issue-7')).toBe('')
      await expect(converge(['plan', '--issue-file', t.issue, '--number', '8', '--planner', 'command', '--planner-command', 'gemini', '--repo', t.repo])).rejects.toThrow(
        new InputError('Planning could not start: the planner command gemini runs `gemini`, which is not installed here (command -v gemini finds nothing on PATH): install it with `npm install -g @google/gemini-cli` and give it GEMINI_API_KEY, then run this again'),
      )
      expect(t.git('rev-parse', 'converge/state')).toBe(stateBefore)
    } finally {
      await t.cleanup()
    }
  })
})

describe("a failed task's detail", () => {
  it('is not cut before the line that explains it, after a long command', async () => {
    const t = await cleanRepo()
    try {
      const command = `node -e "console.log('checking the slug of a long title with accents, ${'and more words '.repeat(6)}'); console.error('AssertionError: expected creme-brulee, got cre-me-bru-le-e'); process.exit(1)"`
      const plan = {
        description: 'Slugs', analysis: { risk: 'low', impact: 'low', complexity: 'low' },
        tasks: [{
          id: 'T1', title: 'Fix slugs', action: 'Fix', description: 'Fix them', depends_on: [],
          files: [{ path: 'slug.js', action: 'modify', changes: ['Fold accents'] }], implementation: ['Fold accents'],
          test: { commands: [command] }, convergence: { criteria: ['Accents fold'], verification: '', definition_of_done: 'Slugs read well' },
        }],
      }
      const issue = join(t.dir, '3.md')
      await writeFile(issue, `# Slugs\n\n\`\`\`json\n${JSON.stringify(plan)}\n\`\`\`\n`)
      await converge(['plan', '--issue-file', issue, '--repo', t.repo])
      await converge(['approve', '--number', '3', '--repo', t.repo])
      const { out } = await converge(['verify', '--number', '3', '--repo', t.repo])
      expect(out).toMatch(/^ {8}Not converged after 1 attempt: `node -e .*` exited with code 1 \(AssertionError: expected creme-brulee, got cre-me-bru-le-e\)$/m)
      expect(out).toMatch(/^ {10}AssertionError: expected creme-brulee, got cre-me-bru-le-e$/m)
    } finally {
      await t.cleanup()
    }
  })
})

describe('attempt counts', () => {
  it('agree everywhere: an executor that fails the same way in two rounds is 4 attempts in the count and in the reason', async () => {
    const t = await greetingsRepo()
    try {
      await converge(['plan', '--issue-file', t.issue, '--repo', t.repo])
      await converge(['approve', '--number', '7', '--repo', t.repo])
      const run = await converge(['execute', '--number', '7', '--repo', t.repo, '--executor', "sh -c 'echo disk quota exceeded >&2; exit 1'", '--max-iterations', '3', '--json'])
      const [t1] = JSON.parse(run.out).tasks
      expect(t1.attempts).toBe(4)
      expect(t1.error).toMatch(/^the executor exited with code 1: disk quota exceeded \(stopped after 4 attempts in 2 rounds: the executor failed the same way each time\)\. Not converged after 4 attempts in 2 rounds \(on-failure: retry\): /)
    } finally {
      await t.cleanup()
    }
  })

  it('a refused key is one attempt: on-failure retry does not run it again in a later round, and the count says 1', async () => {
    const t = await greetingsRepo()
    try {
      await converge(['plan', '--issue-file', t.issue, '--repo', t.repo])
      await converge(['approve', '--number', '7', '--repo', t.repo])
      const run = await converge(['execute', '--number', '7', '--repo', t.repo, '--executor', "sh -c 'echo Invalid API key >&2; exit 1'", '--json'])
      const [t1] = JSON.parse(run.out).tasks
      expect(t1.attempts).toBe(1)
      expect(t1.error).toMatch(/credentials were refused: Invalid API key.*nothing was verified \(attempt 1\)$/)
    } finally {
      await t.cleanup()
    }
  })
})
