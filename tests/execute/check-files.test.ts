import { describe, expect, it } from 'vitest'
import { checkSideRole, manifestChecksDiffer, scriptPathsOf } from '../../src/model/check-files.js'

const role = (path: string, extra: { ignored?: boolean; manifestChecksChanged?: boolean; scripts?: string[] } = {}) =>
  checkSideRole({ path, ignored: extra.ignored ?? false, ...(extra.manifestChecksChanged !== undefined ? { manifestChecksChanged: extra.manifestChecksChanged } : {}) }, new Set(extra.scripts ?? []))

describe('the check side of a change (SPEC §7 evidence integrity)', () => {
  it('test files by the conventions of the common ecosystems', () => {
    for (const path of ['test/bytes.js', 'tests/test_slug.py', 'src/__tests__/a.tsx', 'src/a.test.ts', 'lib/b.spec.mjs', 'pkg/slug_test.go',
      'spec/models/user_spec.rb', 'src/test/java/a/SlugTest.java', 'conftest.py', 'src/__snapshots__/a.test.ts.snap', 'testdata/in.txt', 'fixtures/a.json'])
      expect(role(path), path).toBe('a test file')
  })

  it("the test runner's and the build's configuration, and the environment of the commands", () => {
    for (const path of ['.mocharc.yml', 'jest.config.js', 'vitest.config.ts', 'pytest.ini', 'pyproject.toml', 'Makefile', 'tsconfig.json', 'karma.conf.js'.replace('.conf', '.config')])
      expect(role(path), path).toBe("the test runner's or the build's configuration")
    for (const path of ['.npmrc', '.yarnrc.yml', '.env', '.env.test', '.nvmrc']) expect(role(path), path).toBe('the environment of the commands')
  })

  it("package.json is on the check side only when what it runs changed", () => {
    expect(role('package.json', { manifestChecksChanged: true })).toBe("package.json's scripts")
    expect(role('package.json', { manifestChecksChanged: false })).toBeUndefined()
    expect(manifestChecksDiffer('{"scripts":{"test":"mocha"},"version":"1"}', '{"scripts":{"test":"exit 0"},"version":"1"}')).toBe(true)
    expect(manifestChecksDiffer('{"scripts":{"test":"mocha"},"version":"1"}', '{"scripts":{"test":"mocha"},"version":"2"}')).toBe(false)
    expect(manifestChecksDiffer('{"scripts":{"test":"mocha"}}', '{"scripts":')).toBe(true)
    expect(manifestChecksDiffer(undefined, '{"scripts":{"test":"mocha"}}')).toBe(true)
  })

  it('ignored files (a shim, a local config) and the scripts a command runs', () => {
    expect(role('node_modules/.bin/mocha', { ignored: true })).toBe('a shim of a command (ignored by git)')
    expect(role('.local/settings', { ignored: true })).toBe('an ignored file (in no commit)')
    const scripts = scriptPathsOf(['sh scripts/check.sh && ./verify', 'npm test -- --grep slug', 'CI=1 bin/lint --fix'], { test: 'node tools/run-tests.mjs' })
    expect([...scripts].sort()).toEqual(['bin/lint', 'scripts/check.sh', 'tools/run-tests.mjs', 'verify'])
    // What a check imports or tests is not what it runs: the code under test stays on the code side.
    expect([...scriptPathsOf([`node --input-type=module -e "import { slugify } from './src/slugify.js'"`, 'node --test test/a.test.js src/b.js', './node_modules/.bin/mocha test/x.js'])]).toEqual(['test/a.test.js'])
    expect(role('scripts/check.sh', { scripts: [...scripts] })).toBe('a script the check runs')
    expect(role('tools/run-tests.mjs', { scripts: [...scripts] })).toBe('a script the check runs')
  })

  it('a script the check runs: the file itself, or a file under the directory it names, nothing beside it', () => {
    expect(role('tools/runner/index.js', { scripts: ['tools/runner'] })).toBe('a script the check runs')
    expect(role('tools/runner-old/index.js', { scripts: ['tools/runner'] })).toBeUndefined()
    expect(role('scripts/check.sh.bak', { scripts: ['scripts/check.sh'] })).toBeUndefined()
    expect(role('src/slug.ts', { scripts: ['scripts/check.sh'] })).toBeUndefined()
    expect(role('package.json.orig', { manifestChecksChanged: true })).toBeUndefined()
  })

  it("the files a command line runs: past variables, wrappers and their --no- options, an interpreter's options", () => {
    const ran = (...commands: string[]) => [...scriptPathsOf(commands)].sort()
    expect(ran('NODE_ENV=test ./verify', 'env nice npx --no-install ./tools/check.js')).toEqual(['tools/check.js', 'verify'])
    expect(ran('sh -ex scripts/ci.sh', '/usr/bin/python3 -u tools/gen.py', 'node tools/bench.js -c 4')).toEqual(['scripts/ci.sh', 'tools/bench.js', 'tools/gen.py'])
    // Inline code, a quoted argument, no program at all: no file runs.
    expect(ran('python3 -c pass', 'node "tools/run.js"', "bash 'scripts/x.sh'", 'env', 'nice')).toEqual([])
  })

  it('a path it runs is kept relative to the repository: none outside it, in node_modules or on the web', () => {
    expect([...scriptPathsOf(['./tools/gen/ --all', '/usr/local/bin/tool', '../other/run.sh', './', 'bun https://example.com/tool.ts', 'sh ./node_modules/x/run.sh'])]).toEqual(['tools/gen'])
  })

  it('two manifests broken differently differ; the same break does not', () => {
    expect(manifestChecksDiffer('{"scripts":', '{"scripts":{')).toBe(true)
    expect(manifestChecksDiffer('{"scripts":', '{"scripts":')).toBe(false)
  })

  it('the code is the rest', () => {
    for (const path of ['index.js', 'src/slug.ts', 'lib/testing-utils-are-code.js', 'README.md', 'docs/guide.md']) expect(role(path), path).toBeUndefined()
  })
})
