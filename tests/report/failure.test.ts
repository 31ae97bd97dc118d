import { describe, expect, it } from 'vitest'
import { cleanOutput, tellingLines } from '../../src/report/failure.js'
import { FAILING_TRUNCATE_OUTPUT } from './fixtures.js'

describe('the lines of a failing command that say why', () => {
  it('keeps the failure, the assertion and the comparison; drops passing tests and stack frames', () => {
    expect(tellingLines(FAILING_TRUNCATE_OUTPUT)).toEqual([
      '  ✖ cuts on a word boundary (1.07ms)',
      '    AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:',
      "    'hello wonderful…' !== 'hello…'",
      "      code: 'ERR_ASSERTION',",
      "      actual: 'hello wonderful…',",
      "      expected: 'hello…',",
      '✖ truncate (2.3ms)',
      'ℹ fail 1',
    ])
  })

  it('reads pytest and compiler output', () => {
    const pytest = [
      '============================= test session starts ==============================',
      'collected 3 items',
      'tests/test_slug.py ..F                                                    [100%]',
      '=================================== FAILURES ===================================',
      '    def test_accents():',
      ">       assert slugify('Crème') == 'creme'",
      "E       AssertionError: assert 'cr-me' == 'creme'",
      '=========================== short test summary info ============================',
      "FAILED tests/test_slug.py::test_accents - AssertionError: assert 'cr-me' == 'creme'",
      '========================= 1 failed, 2 passed in 0.05s =========================',
    ].join('\n')
    expect(tellingLines(pytest)).toEqual([
      '=================================== FAILURES ===================================',
      ">       assert slugify('Crème') == 'creme'",
      "E       AssertionError: assert 'cr-me' == 'creme'",
      "FAILED tests/test_slug.py::test_accents - AssertionError: assert 'cr-me' == 'creme'",
      '========================= 1 failed, 2 passed in 0.05s =========================',
    ])
    expect(tellingLines("src/a.ts(3,7): error TS2322: Type 'string' is not assignable to type 'number'.")).toEqual([
      "src/a.ts(3,7): error TS2322: Type 'string' is not assignable to type 'number'.",
    ])
  })

  it('falls back to the last lines when nothing matches', () => {
    expect(tellingLines('one\ntwo\nthree\nfour\nfive\nsix\nseven')).toEqual(['three', 'four', 'five', 'six', 'seven'])
  })

  it('strips colours and control characters', () => {
    expect(cleanOutput('\u001b[31m✖ failed\u001b[39m\r\nnext\u0007')).toBe('✖ failed\nnext')
  })
})
