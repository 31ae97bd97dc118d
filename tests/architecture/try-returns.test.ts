/** The `returns` rule of `scripts/check-architecture.ts` (`scripts/architecture/try-returns.ts`). */
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import ts from 'typescript'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { unawaitedTryReturns } from '../../scripts/architecture/try-returns.js'

const SOURCE = `
declare function work(): Promise<string>
declare function cleanUp(): Promise<void>
export async function inTry() { try { return work() } finally { await cleanUp() } }
export async function inCatchWithFinally() { try { await work() } catch { return work() } finally { await cleanUp() } }
export async function awaited() { try { return await work() } finally { await cleanUp() } }
export async function afterTry() { let v: string; try { v = await work() } finally { await cleanUp() } return work() }
export async function plainValue() { try { return 'v' } finally { await cleanUp() } }
export function notAsync() { try { return work() } finally { void cleanUp() } }
export async function inCatchOnly() { try { await work() } catch { return work() } }
export async function nested() { try { const f = async () => work(); return await f() } finally { await cleanUp() } }
`

let dir: string
let found: string[]
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'converge-try-returns-'))
  const file = join(dir, 'sample.ts')
  await writeFile(file, SOURCE)
  const program = ts.createProgram([file], { strict: true, target: ts.ScriptTarget.ES2022, noEmit: true })
  found = unawaitedTryReturns(program, [program.getSourceFile(file)!]).map((line) => line.slice(file.length + 1))
})
afterAll(() => rm(dir, { recursive: true, force: true }))

describe('unawaitedTryReturns', () => {
  it('finds a promise returned un-awaited from a try block, or from a catch block with a finally, of an async function', () => {
    expect(found).toEqual(['4: return work()', '5: return work()'])
  })
})
