import { execFile } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
// @ts-expect-error a plain Node script of the release workflow, without types
import { changelogSection, releaseOf } from '../../scripts/release.mjs'

const SCRIPT = resolve(import.meta.dirname, '..', '..', 'scripts', 'release.mjs')

const CHANGELOG = `# Changelog

## [Unreleased]

- Something not released yet.

## [0.2.0] - 2026-12-01

### Added

- Scale-out over many runners.

### Fixed

- A plan holding a secret reads as approved.

## [0.1.0] - 2026-11-24

- First release.

[0.2.0]: https://github.com/converge-action/converge/compare/v0.1.0...v0.2.0
`

describe('the release tag', () => {
  it('names the package version and the major tag it moves; a pre-release moves none', () => {
    expect(releaseOf('v0.2.0', '0.2.0')).toEqual({ version: '0.2.0', major: 'v0' })
    expect(releaseOf('v12.0.3', '12.0.3')).toEqual({ version: '12.0.3', major: 'v12' })
    expect(releaseOf('v1.0.0-rc.1', '1.0.0-rc.1')).toEqual({ version: '1.0.0-rc.1', major: undefined })
  })

  it.each([
    ['v0', '0.1.0', '"v0" is not a release tag: tag vMAJOR.MINOR.PATCH'],
    ['0.1.0', '0.1.0', '"0.1.0" is not a release tag'],
    ['v0.1', '0.1.0', '"v0.1" is not a release tag'],
    ['v01.0.0', '1.0.0', '"v01.0.0" is not a release tag'],
    ['v0.1.1', '0.1.0', 'v0.1.1 is not the version in package.json (0.1.0): bump "version" and tag again'],
  ])('refuses %s (package.json %s)', (tag, version, message) => {
    expect(releaseOf(tag, version).error).toContain(message)
  })
})

describe('the release notes', () => {
  it("are the version's section of CHANGELOG.md, without its heading or the link references", () => {
    expect(changelogSection(CHANGELOG, '0.2.0')).toBe('### Added\n\n- Scale-out over many runners.\n\n### Fixed\n\n- A plan holding a secret reads as approved.')
    expect(changelogSection(CHANGELOG, '0.1.0')).toBe('- First release.')
    expect(changelogSection(CHANGELOG, '0.3.0')).toBeUndefined()
    expect(changelogSection(CHANGELOG, '0.2')).toBeUndefined()
  })

  describe('node scripts/release.mjs, as the workflow runs it', () => {
    let dir: string
    beforeAll(async () => {
      dir = await mkdtemp(join(tmpdir(), 'converge-release-'))
      await writeFile(join(dir, 'CHANGELOG.md'), CHANGELOG)
    })
    afterAll(() => rm(dir, { recursive: true, force: true }))
    const run = async (version: string, ...args: string[]) => {
      await writeFile(join(dir, 'package.json'), JSON.stringify({ version }))
      return promisify(execFile)(process.execPath, [SCRIPT, ...args], { cwd: dir }).then(
        ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
        (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr }),
      )
    }

    it('prints the notes and the major tag', async () => {
      expect(await run('0.2.0', 'notes', 'v0.2.0')).toMatchObject({ code: 0, stdout: expect.stringMatching(/^### Added\n\n- Scale-out/) })
      expect(await run('0.2.0', 'major', 'v0.2.0')).toEqual({ code: 0, stdout: 'v0\n', stderr: '' })
    })

    it('stops the release, saying what to do, when the changelog has no section for the version', async () => {
      expect(await run('0.3.0', 'notes', 'v0.3.0')).toEqual({
        code: 1,
        stdout: '',
        stderr: 'release: CHANGELOG.md has no section "## [0.3.0]" with notes: rename "## [Unreleased]" to "## [0.3.0] - YYYY-MM-DD" and tag again\n',
      })
    })

    it('stops the release when the tag is not the package version', async () => {
      expect(await run('0.2.0', 'notes', 'v0.2.1')).toMatchObject({ code: 1, stderr: expect.stringContaining('v0.2.1 is not the version in package.json (0.2.0)') })
    })
  })
})
