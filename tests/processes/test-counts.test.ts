import { describe, expect, it } from 'vitest'
import { parseTestCounts, passRate } from '../../src/processes/test-counts.js'

const lines = (...text: string[]) => text.join('\n')

describe('parseTestCounts', () => {
  it('reads vitest, colours included', () => {
    const output = lines(
      ' \u001b[31m❯\u001b[39m a.test.ts \u001b[2m(\u001b[22m\u001b[2m4 tests\u001b[22m\u001b[2m | \u001b[22m\u001b[31m1 failed\u001b[39m\u001b[2m | \u001b[22m\u001b[33m1 skipped\u001b[39m\u001b[2m)\u001b[22m\u001b[32m 9\u001b[2mms\u001b[22m\u001b[39m',
      '   \u001b[32m✓\u001b[39m adds\u001b[32m 2\u001b[2mms\u001b[22m\u001b[39m',
      '\u001b[31m   \u001b[31m×\u001b[31m subtracts\u001b[39m\u001b[32m 6\u001b[2mms\u001b[22m\u001b[39m',
      '',
      '\u001b[2m Test Files \u001b[22m \u001b[1m\u001b[31m1 failed\u001b[39m\u001b[22m\u001b[2m | \u001b[22m\u001b[1m\u001b[32m1 passed\u001b[39m\u001b[22m\u001b[90m (2)\u001b[39m',
      '\u001b[2m      Tests \u001b[22m \u001b[1m\u001b[31m1 failed\u001b[39m\u001b[22m\u001b[2m | \u001b[22m\u001b[1m\u001b[32m3 passed\u001b[39m\u001b[22m\u001b[2m | \u001b[22m\u001b[33m1 skipped\u001b[39m\u001b[90m (5)\u001b[39m',
      '\u001b[2m   Start at \u001b[22m 01:11:35',
      '\u001b[2m   Duration \u001b[22m 520ms\u001b[2m (transform 27ms, setup 0ms, import 54ms, tests 14ms, environment 0ms)\u001b[22m',
    )
    expect(parseTestCounts(output)).toEqual({ passed: 3, failed: 1, skipped: 1, framework: 'vitest' })
    expect(parseTestCounts('      Tests  3 failed | 12 passed (15)\n')).toEqual({ passed: 12, failed: 3, framework: 'vitest' })
  })

  it('reads jest', () => {
    const output = lines(
      'FAIL src/auth/token.test.ts',
      '  ● refreshToken › retries once when the token has expired',
      '',
      '    expect(received).toBe(expected) // Object.is equality',
      '',
      'PASS src/auth/session.test.ts',
      '',
      'Test Suites: 1 failed, 1 passed, 2 total',
      'Tests:       1 failed, 1 skipped, 4 passed, 6 total',
      'Snapshots:   0 total',
      'Time:        1.734 s',
      'Ran all test suites.',
    )
    expect(parseTestCounts(output)).toEqual({ passed: 4, failed: 1, skipped: 1, framework: 'jest' })
  })

  it("reads node's test runner, TAP and spec reporters", () => {
    const tap = lines(
      '# Subtest: later',
      'ok 3 - later # SKIP',
      '  ---',
      '  duration_ms: 0.157727',
      '  ...',
      '1..4',
      '# tests 4',
      '# suites 0',
      '# pass 2',
      '# fail 1',
      '# cancelled 0',
      '# skipped 1',
      '# todo 0',
      '# duration_ms 156.995602',
    )
    expect(parseTestCounts(tap)).toEqual({ passed: 2, failed: 1, skipped: 1, framework: 'node' })
    const spec = lines(
      "    operator: '=='",
      '  }',
      '',
      'ℹ tests 5',
      'ℹ suites 1',
      'ℹ pass 3',
      'ℹ fail 0',
      'ℹ cancelled 1',
      'ℹ skipped 0',
      'ℹ todo 1',
      'ℹ duration_ms 143.282441',
    )
    expect(parseTestCounts(spec)).toEqual({ passed: 3, failed: 1, skipped: 1, framework: 'node' })
  })

  it('reads TAP from other producers (tape)', () => {
    const output = lines(
      'TAP version 13',
      '# token refresh',
      'ok 1 should be strictly equal',
      'not ok 2 should be strictly equal',
      '  ---',
      '    operator: equal',
      '    expected: 401',
      '    actual:   200',
      '  ...',
      'ok 3 should be truthy',
      '',
      '1..3',
      '# tests 3',
      '# pass  2',
      '# fail  1',
      '',
    )
    expect(parseTestCounts(output)).toEqual({ passed: 2, failed: 1, framework: 'tap' })
    expect(parseTestCounts(lines('1..3', '# tests 3', '# pass  3', '', '# ok', ''))).toEqual({ passed: 3, failed: 0, framework: 'tap' })
  })

  it('reads pytest, with and without -q', () => {
    const output = lines(
      'test_math.py:3: AssertionError',
      '=========================== short test summary info ============================',
      'FAILED test_math.py::test_sub - assert (2 - 1) == 2',
      '==================== 1 failed, 2 passed, 1 skipped in 0.83s ====================',
    )
    expect(parseTestCounts(output)).toEqual({ passed: 2, failed: 1, skipped: 1, framework: 'pytest' })
    expect(parseTestCounts('FAILED test_math.py::test_sub - assert (2 - 1) == 2\n1 failed, 2 passed, 1 skipped in 0.94s\n')).toEqual({
      passed: 2,
      failed: 1,
      skipped: 1,
      framework: 'pytest',
    })
    expect(parseTestCounts('===== 10 passed, 1 xfailed, 2 warnings in 65.02s (0:01:05) =====')).toEqual({
      passed: 10,
      failed: 0,
      skipped: 1,
      framework: 'pytest',
    })
    expect(parseTestCounts('=========== 1 error in 0.12s ===========')).toEqual({ passed: 0, failed: 1, framework: 'pytest' })
  })

  it('reads go test, counting tests with -v and packages without', () => {
    const verbose = lines(
      '=== RUN   TestAdd',
      '--- PASS: TestAdd (0.00s)',
      '=== RUN   TestSub',
      '    math_test.go:12: Sub(2, 1) = 1, want 2',
      '--- FAIL: TestSub (0.00s)',
      '=== RUN   TestTable',
      '=== RUN   TestTable/zero',
      '=== RUN   TestTable/one',
      '--- PASS: TestTable (0.00s)',
      '    --- PASS: TestTable/zero (0.00s)',
      '    --- PASS: TestTable/one (0.00s)',
      '=== RUN   TestNetwork',
      '    math_test.go:31: needs network',
      '--- SKIP: TestNetwork (0.00s)',
      'FAIL',
      'FAIL\texample.com/calc\t0.003s',
      '=== RUN   TestUpper',
      '--- PASS: TestUpper (0.00s)',
      'PASS',
      'ok  \texample.com/calc/strings\t0.002s',
      'FAIL',
    )
    expect(parseTestCounts(verbose)).toEqual({ passed: 3, failed: 1, skipped: 1, framework: 'go' })
    const quiet = lines(
      '--- FAIL: TestSub (0.00s)',
      '    math_test.go:12: Sub(2, 1) = 1, want 2',
      'FAIL',
      'FAIL\texample.com/calc\t0.003s',
      'ok  \texample.com/calc/strings\t(cached)',
      '?   \texample.com/calc/cmd\t[no test files]',
      '# example.com/calc/parse [example.com/calc/parse.test]',
      'parse/parse_test.go:9:2: undefined: Tokens',
      'FAIL\texample.com/calc/parse [build failed]',
      'FAIL',
    )
    expect(parseTestCounts(quiet)).toEqual({ passed: 1, failed: 2, framework: 'go' })
  })

  it('reads cargo test, adding up the unit, integration and doc tests', () => {
    const passing = lines(
      '   Compiling demo v0.1.0 (/tmp/fx/rs)',
      '    Finished `test` profile [unoptimized + debuginfo] target(s) in 0.19s',
      '     Running unittests src/lib.rs (target/debug/deps/demo-8348ca7a80742723)',
      '',
      'running 3 tests',
      'test tests::adds_more ... ok',
      'test tests::adds ... ok',
      'test tests::slow ... ignored',
      '',
      'test result: ok. 2 passed; 0 failed; 1 ignored; 0 measured; 0 filtered out; finished in 0.00s',
      '',
      '     Running tests/integration.rs (target/debug/deps/integration-95c18cfe0a4e431d)',
      '',
      'running 1 test',
      'test it_works ... ok',
      '',
      'test result: ok. 1 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s',
      '',
      '   Doc-tests demo',
      '',
      'running 1 test',
      'test src/lib.rs - add (line 1) ... ok',
      '',
      'test result: ok. 1 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s',
      '',
      'all doctests ran in 0.28s; merged doctests compilation took 0.27s',
    )
    expect(parseTestCounts(passing)).toEqual({ passed: 4, failed: 0, skipped: 1, framework: 'cargo' })
    const failing = lines(
      'failures:',
      '    tests::adds_more',
      '',
      'test result: FAILED. 1 passed; 1 failed; 1 ignored; 0 measured; 0 filtered out; finished in 0.00s',
      '',
      'error: test failed, to rerun pass `--lib`',
    )
    expect(parseTestCounts(failing)).toEqual({ passed: 1, failed: 1, skipped: 1, framework: 'cargo' })
  })

  it('reads mocha', () => {
    const output = lines(
      '  TokenStore',
      '    #refresh()',
      '      ✔ returns a new token',
      '      1) retries once on 401',
      '      - rotates the signing key',
      '',
      '',
      '  5 passing (12ms)',
      '  1 pending',
      '  1 failing',
      '',
      '  1) TokenStore',
      '       #refresh()',
      '         retries once on 401:',
      '',
      '      AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:',
    )
    expect(parseTestCounts(output)).toEqual({ passed: 5, failed: 1, skipped: 1, framework: 'mocha' })
    expect(parseTestCounts('\n\n  12 passing (40ms)\n\n')).toEqual({ passed: 12, failed: 0, framework: 'mocha' })
  })

  it('reads a plain "N passed, N failed" line', () => {
    expect(parseTestCounts('running checks...\nResults: 41 passed, 2 failed\n')).toEqual({ passed: 41, failed: 2, framework: 'plain' })
    expect(parseTestCounts('summary: 2 failed; 41 passed')).toEqual({ passed: 41, failed: 2, framework: 'plain' })
  })

  it('uses the last summary in the output', () => {
    const rerun = lines(
      '      Tests  2 failed | 10 passed (12)',
      'retrying failed tests...',
      '      Tests  12 passed (12)',
    )
    expect(parseTestCounts(rerun)).toEqual({ passed: 12, failed: 0, framework: 'vitest' })
    const twoTools = lines('==== 3 passed in 0.10s ====', '> npm test', 'Tests:       1 failed, 4 passed, 5 total')
    expect(parseTestCounts(twoTools)).toEqual({ passed: 4, failed: 1, framework: 'jest' })
  })

  it('returns undefined when there is no summary', () => {
    expect(parseTestCounts('')).toBeUndefined()
    expect(parseTestCounts('Compiled successfully in 1.2s\nok 200 GET /health\nFAIL: lint found 3 problems')).toBeUndefined()
    expect(parseTestCounts('      Tests  no tests\n=== no tests ran in 0.01s ===')).toBeUndefined()
  })
})

describe('passRate', () => {
  it('is the share of passed among passed and failed tests, in percent', () => {
    expect(passRate({ passed: 3, failed: 1, skipped: 5, framework: 'vitest' })).toBe(75)
    expect(passRate({ passed: 2, failed: 1, framework: 'jest' })).toBe(66.7)
    expect(passRate({ passed: 0, failed: 0, framework: 'pytest' })).toBe(0)
  })
})
