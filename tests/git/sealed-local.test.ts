/**
 * Converge's local git calls in the checkout run none of the programs a `.git` someone else wrote names for
 * attributes: a filter driver in `.git/config` (or `~/.gitconfig`) named by `.git/info/attributes` or a
 * `.gitattributes`, whatever its name (one holding `=` or dots included), and merge drivers.
 */
import { mkdtemp, readFile, rm, writeFile, chmod } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { identityEnv, runGit } from '../../src/git/git.js'
import { NO_CHECKOUT_PROGRAMS, sealedLocalEnv } from '../../src/git/sealed-remote.js'

let dir: string
let ran: string
const git = (args: string[], env?: Record<string, string>) => runGit(args, { cwd: dir, env: { ...identityEnv({ name: 't', email: 't@t' }), ...env } })

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'converge-sealed-local-'))
  ran = join(dir, '..', `${dir.split('/').at(-1)}-ran`)
  await git(['init', '--quiet'])
  await writeFile(join(dir, 'a.txt'), 'a\n')
  await git(['add', 'a.txt'])
  await git(['commit', '--quiet', '-m', 'a'])
  const program = join(dir, '.git', 'program.sh')
  await writeFile(program, `#!/bin/sh\necho "$1" >> "${ran}"\ncat\n`)
  await chmod(program, 0o755)
  for (const name of ['evil', 'a=b.c']) {
    await git(['config', `filter.${name}.clean`, `${program} clean`])
    await git(['config', `filter.${name}.smudge`, `${program} smudge`])
  }
  await git(['config', 'merge.evil.driver', `${program} merge`])
  await writeFile(join(dir, '.git', 'info', 'attributes'), '* filter=evil merge=evil\n*.md filter=a=b.c\n')
})
afterEach(async () => {
  await rm(dir, { recursive: true, force: true })
  await rm(ran, { force: true })
})

const programsRun = async () => (await readFile(ran, 'utf8').catch(() => '')).split('\n').filter(Boolean)

describe('sealedLocalEnv', () => {
  it('switches off every configured filter driver for status, add and checkout', async () => {
    await writeFile(join(dir, 'a.txt'), 'b\n')
    await writeFile(join(dir, 'b.md'), 'b\n')
    const env = await sealedLocalEnv(dir, { own: true })
    await git([...NO_CHECKOUT_PROGRAMS, 'status', '--porcelain'], env)
    await git([...NO_CHECKOUT_PROGRAMS, 'add', 'b.md'], env)
    await git([...NO_CHECKOUT_PROGRAMS, 'checkout', '--quiet', '--', 'a.txt'], env)
    expect(await programsRun()).toEqual([])
    expect(await readFile(join(dir, 'a.txt'), 'utf8')).toBe('a\n')
  })

  it('is needed: the same calls without it run the drivers', async () => {
    await writeFile(join(dir, 'a.txt'), 'b\n')
    await writeFile(join(dir, 'b.md'), 'b\n')
    await git([...NO_CHECKOUT_PROGRAMS, 'add', 'b.md'])
    await git([...NO_CHECKOUT_PROGRAMS, 'checkout', '--quiet', '--', 'a.txt'])
    expect(await programsRun()).toEqual(expect.arrayContaining(['clean', 'smudge']))
  })

  it('turns a merge driver into a conflict, never its program', async () => {
    const env = await sealedLocalEnv(dir)
    expect(Object.entries(env).filter(([k]) => k.startsWith('GIT_CONFIG_KEY_')).map(([, v]) => v)).toEqual(expect.arrayContaining(['merge.evil.driver', 'filter.a=b.c.clean']))
    expect(env).toMatchObject({ GIT_ATTR_NOSYSTEM: '1' })
  })
})
