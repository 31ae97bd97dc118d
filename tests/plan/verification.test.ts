import { existsSync, readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import type { Task } from '../../src/model/index.js'
import { VERIFICATION_RULE_MARKDOWN, verificationEntries } from '../../src/model/verification.js'
import { task } from '../support/tasks.js'

function withVerification(verification: string, commands: string[] = []): Task {
  const t = task('T1')
  return { ...t, test: { ...t.test, commands }, convergence: { ...t.convergence, verification } }
}

/** What each entry amounts to: `run <command>` or `manual <text>`. */
function verdicts(verification: string, commands: string[] = []): string[] {
  return verificationEntries(withVerification(verification, commands)).map((e) =>
    e.kind === 'command' ? `run ${e.command}` : `manual ${e.text}`,
  )
}

describe('verificationEntries', () => {
  it.each([
    // Explicit markers, in any position of a multi-line verification.
    ['Run: npm test', ['run npm test']],
    ['run:npm test', ['run npm test']],
    ['RUN:   npm test -- auth', ['run npm test -- auth']],
    ['$ npm test', ['run npm test']],
    ['`npm test`', ['run npm test']],
    ['```npm test```', ['run npm test']],
    ['Run: `npx tsc --noEmit`', ['run npx tsc --noEmit']],
    ['`$ make check`', ['run make check']],
    ['Manual: Verify token in console', ['manual Manual: Verify token in console']],
    ['manual: open the page', ['manual manual: open the page']],
    // A single line that looks like a command is run as it stands.
    ['npm test', ['run npm test']],
    ['jest --testPathPattern=auth.test.ts && npx tsc --noEmit', ['run jest --testPathPattern=auth.test.ts && npx tsc --noEmit']],
    ['pytest -q tests/test_auth.py', ['run pytest -q tests/test_auth.py']],
    ['go test ./...', ['run go test ./...']],
    ['cargo test --all', ['run cargo test --all']],
    ['make', ['run make']],
    ['test -f dist/index.js', ['run test -f dist/index.js']],
    ['CI=1 NODE_ENV=test npm test', ['run CI=1 NODE_ENV=test npm test']],
    ['./scripts/verify.sh --fast', ['run ./scripts/verify.sh --fast']],
    ['bin/check', ['run bin/check']],
    ['scripts/smoke.sh', ['run scripts/smoke.sh']],
    ['check-all.sh', ['run check-all.sh']],
    ['./gradlew test', ['run ./gradlew test']],
    ['  npm test  \n\n', ['run npm test']],
    ['- npm test', ['run npm test']],
    // Prose, and capitalised words that happen to be tool names, are manual.
    ['Check it', ['manual Check it']],
    ['Run tests', ['manual Run tests']],
    ['Test the login page', ['manual Test the login page']],
    ['Make sure the token refreshes', ['manual Make sure the token refreshes']],
    ['Go to /settings and log out', ['manual Go to /settings and log out']],
    ['src/auth.ts exports refreshToken', ['manual src/auth.ts exports refreshToken']],
    [
      "1. Run npm test -- --grep 'token refresh' 2. Verify no TypeScript errors with npx tsc --noEmit",
      ["manual 1. Run npm test -- --grep 'token refresh' 2. Verify no TypeScript errors with npx tsc --noEmit"],
    ],
    ['Run:', ['manual Run:']],
    // Several lines: only marked entries are commands; a bare tool line is not guessed at.
    ['npm test\nnpx tsc --noEmit', ['manual npm test', 'manual npx tsc --noEmit']],
    ['Run: npm test\nManual: Verify token in console', ['run npm test', 'manual Manual: Verify token in console']],
    ['1. Run: npm test\n2. Manual: log in again\n3. $ npx tsc --noEmit', ['run npm test', 'manual 2. Manual: log in again', 'run npx tsc --noEmit']],
    ['* `npm run lint`\n* Check the page title', ['run npm run lint', 'manual * Check the page title']],
    ['', []],
    ['\n  \n', []],
  ])('%j', (verification, expected) => {
    expect(verdicts(verification)).toEqual(expected)
  })

  it('runs every test.commands entry, before the verification', () => {
    expect(verdicts('Manual: look at the page', ['npm test', 'Run: npm run e2e', '  '])).toEqual([
      'run npm test',
      'run npm run e2e',
      'manual Manual: look at the page',
    ])
  })

  it('treats a test.commands entry as a command even when it reads like prose', () => {
    expect(verdicts('', ['Check the logs'])).toEqual(['run Check the logs'])
  })

  it('runs a command named twice once, where it first appears', () => {
    const entries = verificationEntries(withVerification('Run: npm test\n$ npx tsc --noEmit\n`npx tsc --noEmit`', ['npm test']))
    expect(entries).toEqual([
      { source: 'test.commands', text: 'npm test', kind: 'command', command: 'npm test' },
      { source: 'convergence.verification', text: '$ npx tsc --noEmit', kind: 'command', command: 'npx tsc --noEmit' },
    ])
  })

  it('dedupes a single-line verification against test.commands', () => {
    expect(verdicts('npm test', ['npm test'])).toEqual(['run npm test'])
  })

  it('keeps the text as written, list marker included', () => {
    const [entry] = verificationEntries(withVerification('- Run: npm test\n- Manual: check'))
    expect(entry).toEqual({ source: 'convergence.verification', text: '- Run: npm test', kind: 'command', command: 'npm test' })
  })
})

describe('VERIFICATION_RULE_MARKDOWN', () => {
  it('states each part of the rule', () => {
    for (const part of ['test.commands[]', 'Run: <command>', '$ <command>', 'Manual: <step>', 'exactly one line', '`vitest`', '`./x`', 'runs once'])
      expect(VERIFICATION_RULE_MARKDOWN).toContain(part)
  })

  const readmeUrl = new URL('../../README.md', import.meta.url)
  const heading = VERIFICATION_RULE_MARKDOWN.split('\n')[0]!
  const readme = existsSync(readmeUrl) ? readFileSync(readmeUrl, 'utf8') : ''

  it.skipIf(!readme.includes(heading))('is included verbatim in the README', () => {
    expect(readme).toContain(VERIFICATION_RULE_MARKDOWN.trim())
  })
})
