import { describe, expect, it } from 'vitest'
import { describeFailure } from '../../src/execute/failure-text.js'

const check = (output: string) => ({ kind: 'command' as const, text: 'npm test', verdict: 'fail' as const, verified_by: 'command' as const, exit_code: 1, output_tail: output })

describe("a failed check's one-line reason", () => {
  it("shows an assertion's actual value beside its expected one (Node's assertion dump, as mocha prints it)", () => {
    const mocha = [
      '  1) Test bytes function', '     should return null if input is invalid:', '',
      '      AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:', '', 'NaN !== null', '',
      '      at Context.<anonymous> (test/bytes.js:32:12)', '  {', "    generatedMessage: true,", "    code: 'ERR_ASSERTION',",
      '    actual: NaN,', '    expected: null,', "    operator: 'strictEqual'", '  }',
    ].join('\n')
    expect(describeFailure(check(mocha))).toBe('`npm test` exited with code 1 (actual: NaN, expected: null)')
  })

  it('keeps an expected line with no actual beside it, and any other explaining line, as it is', () => {
    expect(describeFailure(check('expected: 1024,'))).toBe('`npm test` exited with code 1 (expected: 1024)')
    expect(describeFailure(check('Error: boom\n1 failing'))).toBe('`npm test` exited with code 1 (Error: boom)')
  })
})
