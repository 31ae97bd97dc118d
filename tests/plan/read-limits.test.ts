import { execFile } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { analysePlanText } from '../../src/plan/analyse.js'
import { MAX_PLAN_DEPTH } from '../../src/plan/read.js'

const CLI = new URL('../../dist/cli/index.js', import.meta.url).pathname
const deep = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`

describe('plans nested too deep', () => {
  it('are refused before parsing with the line and column where the nesting goes too deep', () => {
    const text = `{\n  "id": "SOL-ISS-1-1",\n  "tasks": [],\n  "notes": ${deep(100_000)}\n}`
    const analysis = analysePlanText(text, 1)
    expect(analysis.errors).toEqual([
      expect.objectContaining({ code: 'too_deep', message: expect.stringMatching(/^Plan is too deeply nested at line 4, column \d+: more than 100 levels/) }),
    ])
  })

  it('count brackets inside strings as text', () => {
    const analysis = analysePlanText(JSON.stringify({ id: 'SOL-ISS-1-1', description: '['.repeat(MAX_PLAN_DEPTH * 2), tasks: [] }), 1)
    expect(analysis.errors.map((e) => e.code)).not.toContain('too_deep')
  })

  it('make `converge validate` exit 1 with the message, not a stack overflow', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'converge-deep-'))
    try {
      await writeFile(join(dir, 'plan.json'), deep(100_000))
      const failed = await promisify(execFile)(process.execPath, [CLI, 'validate', join(dir, 'plan.json')]).catch((error: { code: number; stdout: string; stderr: string }) => error)
      expect('code' in failed ? failed.code : 0).toBe(1)
      expect(failed.stdout + failed.stderr).toContain('too deeply nested at line 1')
      expect(failed.stdout + failed.stderr).not.toMatch(/call stack/i)
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })
})
