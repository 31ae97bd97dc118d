import { execFile } from 'node:child_process'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseAnnotations } from '../../src/report/annotations.js'
import { stripAnsi } from '../../src/report/ansi.js'

const ROOT = '/home/runner/work/demo/demo'
const parse = (output: string, options: { maxPerCommand?: number; goModule?: string } = {}) => parseAnnotations(output, { repoRoot: ROOT, ...options })
const lines = (...text: string[]) => text.join('\n')

describe('parseAnnotations', () => {
  it('reads tsc output', () => {
    const output = lines(
      "src/math.ts(12,5): error TS2322: Type 'string' is not assignable to type 'number'.",
      "src/util/format.ts(3,7): error TS2353: Object literal may only specify known properties, and 'colour' does not exist in type 'Style'.",
      "  Did you mean to write 'color'?",
    )
    expect(parse(output)).toEqual([
      { path: 'src/math.ts', start_line: 12, end_line: 12, start_column: 5, end_column: 5, annotation_level: 'failure', title: 'TS2322', message: "Type 'string' is not assignable to type 'number'." },
      { path: 'src/util/format.ts', start_line: 3, end_line: 3, start_column: 7, end_column: 7, annotation_level: 'failure', title: 'TS2353', message: "Object literal may only specify known properties, and 'colour' does not exist in type 'Style'." },
    ])
  })

  it('reads tsc --pretty output, colours included', () => {
    const output = lines(
      "\u001b[96msrc/math.ts\u001b[0m:\u001b[93m12\u001b[0m:\u001b[93m5\u001b[0m - \u001b[91merror\u001b[0m\u001b[90m TS2322: \u001b[0mType 'string' is not assignable to type 'number'.",
      '',
      "\u001b[7m12\u001b[0m     let total: number = 'zero'",
      '\u001b[7m  \u001b[0m \u001b[91m        ~~~~~\u001b[0m',
      '',
      '',
      'Found 1 error in src/math.ts\u001b[90m:12\u001b[0m',
    )
    expect(parse(output)).toEqual([
      { path: 'src/math.ts', start_line: 12, end_line: 12, start_column: 5, end_column: 5, annotation_level: 'failure', title: 'TS2322', message: "Type 'string' is not assignable to type 'number'." },
    ])
  })

  it('reads ESLint stylish output, with absolute paths, levels and rule ids', () => {
    const output = lines(
      '',
      `${ROOT}/src/app.ts`,
      "   3:10  error    'unused' is defined but never used  @typescript-eslint/no-unused-vars",
      '  14:5   warning  Unexpected console statement        no-console',
      '',
      `${ROOT}/src/parse.ts`,
      '  1:1  error  Parsing error: Unexpected token',
      '',
      '✖ 3 problems (2 errors, 1 warning)',
      '  0 errors and 1 warning potentially fixable with the `--fix` option.',
      '',
    )
    expect(parse(output)).toEqual([
      { path: 'src/app.ts', start_line: 3, end_line: 3, start_column: 10, end_column: 10, annotation_level: 'failure', title: '@typescript-eslint/no-unused-vars', message: "'unused' is defined but never used" },
      { path: 'src/parse.ts', start_line: 1, end_line: 1, start_column: 1, end_column: 1, annotation_level: 'failure', message: 'Parsing error: Unexpected token' },
      { path: 'src/app.ts', start_line: 14, end_line: 14, start_column: 5, end_column: 5, annotation_level: 'warning', title: 'no-console', message: 'Unexpected console statement' },
    ])
  })

  it('reads ESLint unix and compact output', () => {
    const unix = lines(
      `${ROOT}/src/app.ts:3:10: 'unused' is defined but never used. [Error/@typescript-eslint/no-unused-vars]`,
      `${ROOT}/src/app.ts:14:5: Unexpected console statement. [Warning/no-console]`,
      '',
      '2 problems',
    )
    const compact = lines(
      `${ROOT}/src/app.ts: line 3, col 10, Error - 'unused' is defined but never used. (@typescript-eslint/no-unused-vars)`,
      `${ROOT}/src/app.ts: line 14, col 5, Warning - Unexpected console statement. (no-console)`,
      '',
      '2 problems',
    )
    const expected = [
      { path: 'src/app.ts', start_line: 3, end_line: 3, start_column: 10, end_column: 10, annotation_level: 'failure', title: '@typescript-eslint/no-unused-vars', message: "'unused' is defined but never used." },
      { path: 'src/app.ts', start_line: 14, end_line: 14, start_column: 5, end_column: 5, annotation_level: 'warning', title: 'no-console', message: 'Unexpected console statement.' },
    ]
    expect(parse(unix)).toEqual(expected)
    expect(parse(compact)).toEqual(expected)
  })

  it('reads a Vitest failure: the test name as title, the assertion as message, the diff as details', () => {
    const output = lines(
      '',
      ` RUN  v4.0.8 ${ROOT}`,
      '',
      ' ❯ tests/math.test.ts (3 tests | 1 failed) 6ms',
      '   ✓ sum > adds positives 1ms',
      '   × sum > adds negatives 4ms',
      '     → expected -3 to be -2 // Object.is equality',
      '   ✓ sum > adds zero 0ms',
      '',
      '⎯⎯⎯⎯⎯⎯⎯ Failed Tests 1 ⎯⎯⎯⎯⎯⎯⎯',
      '',
      ' FAIL  tests/math.test.ts > sum > adds negatives',
      'AssertionError: expected -3 to be -2 // Object.is equality',
      '',
      '- Expected',
      '+ Received',
      '',
      '- -2',
      '+ -3',
      '',
      ' ❯ tests/math.test.ts:9:26',
      '      7|   })',
      "      8|   it('adds negatives', () => {",
      '      9|     expect(sum(-1, -2)).toBe(-2)',
      '       |                          ^',
      '     10|   })',
      '',
      '⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯[1/1]⎯',
      '',
      ' Test Files  1 failed (1)',
      '      Tests  1 failed | 2 passed (3)',
      '   Start at  10:15:02',
      '   Duration  312ms (transform 41ms, setup 0ms, collect 38ms, tests 6ms, environment 0ms, prepare 81ms)',
    )
    expect(parse(output)).toEqual([
      {
        path: 'tests/math.test.ts', start_line: 9, end_line: 9, start_column: 26, end_column: 26, annotation_level: 'failure',
        title: 'sum > adds negatives',
        message: 'AssertionError: expected -3 to be -2 // Object.is equality',
        raw_details: '- Expected\n+ Received\n- -2\n+ -3',
      },
    ])
  })

  it('places a Vitest error at its first frame inside the repository', () => {
    const output = lines(
      ' FAIL  tests/parse.test.ts > parse > rejects empty input',
      "TypeError: Cannot read properties of undefined (reading 'trim')",
      ` ❯ ${ROOT}/node_modules/tiny-lib/index.js:4:10`,
      ' ❯ parse src/parse.ts:4:16',
      '      2| export function parse(input?: string) {',
      ' ❯ tests/parse.test.ts:6:5',
    )
    expect(parse(output)).toEqual([
      expect.objectContaining({ path: 'src/parse.ts', start_line: 4, title: 'parse > rejects empty input', message: "TypeError: Cannot read properties of undefined (reading 'trim')" }),
    ])
  })

  it('reads a Jest failure and ignores console blocks', () => {
    const output = lines(
      ' FAIL  tests/math.test.js',
      '  sum',
      '    ✓ adds positives (2 ms)',
      '    ✕ adds negatives (3 ms)',
      '',
      '  ● Console',
      '',
      '    console.log',
      '      computing',
      '',
      '      at Object.log (tests/math.test.js:4:13)',
      '',
      '  ● sum › adds negatives',
      '',
      '    expect(received).toBe(expected) // Object.is equality',
      '',
      '    Expected: -2',
      '    Received: -3',
      '',
      '       8 |   test(\'adds negatives\', () => {',
      '    >  9 |     expect(sum(-1, -2)).toBe(-2);',
      '         |                         ^',
      '      10 |   });',
      '',
      '      at Object.toBe (tests/math.test.js:9:25)',
      `      at Promise.then.completed (${ROOT}/node_modules/jest-circus/build/utils.js:298:28)`,
      '',
      'Test Suites: 1 failed, 1 total',
      'Tests:       1 failed, 1 passed, 2 total',
      'Time:        0.412 s',
    )
    const [annotation, ...rest] = parse(output)
    expect(rest).toEqual([])
    expect(annotation).toMatchObject({
      path: 'tests/math.test.js', start_line: 9, start_column: 25, annotation_level: 'failure',
      title: 'sum › adds negatives', message: 'expect(received).toBe(expected) // Object.is equality',
    })
    expect(annotation!.raw_details).toContain('Expected: -2\nReceived: -3')
  })

  it('places an uncaught error at its first frame inside the repository', () => {
    const output = lines(
      `${ROOT}/src/cli.js:7`,
      '  throw new Error(`unknown flag ${flag}`)',
      '  ^',
      '',
      'Error: unknown flag --frob',
      `    at parseFlags (file://${ROOT}/src/cli.js:7:9)`,
      `    at file://${ROOT}/src/cli.js:12:1`,
      '    at ModuleJob.run (node:internal/modules/esm/module_job:271:25)',
      '',
      'Node.js v20.19.0',
    )
    expect(parse(output)).toEqual([
      { path: 'src/cli.js', start_line: 7, end_line: 7, start_column: 9, end_column: 9, annotation_level: 'failure', message: 'Error: unknown flag --frob' },
    ])
  })

  it('reads pytest tracebacks, and the short summary of tests without one', () => {
    const output = lines(
      '============================= test session starts ==============================',
      'platform linux -- Python 3.12.3, pytest-8.3.3, pluggy-1.5.0',
      `rootdir: ${ROOT}`,
      'collected 4 items',
      '',
      'tests/test_calc.py .F.F                                                  [100%]',
      '',
      '=================================== FAILURES ===================================',
      '______________________________ test_divide_by_two ______________________________',
      '',
      '    def test_divide_by_two():',
      '>       assert divide(7, 2) == 3',
      'E       assert 3.5 == 3',
      'E        +  where 3.5 = divide(7, 2)',
      '',
      'tests/test_calc.py:12: AssertionError',
      '_______________________________ test_parse_empty _______________________________',
      '',
      '    def test_parse_empty():',
      '>       parse("")',
      '',
      'tests/test_calc.py:20: ',
      '_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ ',
      '',
      "text = ''",
      '',
      '    def parse(text):',
      '        if not text:',
      '>           raise ValueError("empty input")',
      'E           ValueError: empty input',
      '',
      'src/calc.py:9: ValueError',
      '=========================== short test summary info ============================',
      'FAILED tests/test_calc.py::test_divide_by_two - assert 3.5 == 3',
      'FAILED tests/test_calc.py::test_parse_empty - ValueError: empty input',
      'FAILED tests/test_calc.py::TestRound::test_half[2.5-3] - assert 2 == 3',
      '========================= 3 failed, 1 passed in 0.05s ==========================',
    )
    expect(parse(output)).toEqual([
      { path: 'tests/test_calc.py', start_line: 12, end_line: 12, annotation_level: 'failure', title: 'test_divide_by_two', message: 'assert 3.5 == 3\n+  where 3.5 = divide(7, 2)' },
      { path: 'src/calc.py', start_line: 9, end_line: 9, annotation_level: 'failure', title: 'test_parse_empty', message: 'ValueError: empty input' },
      { path: 'tests/test_calc.py', start_line: 1, end_line: 1, annotation_level: 'failure', title: 'TestRound.test_half[2.5-3]', message: 'assert 2 == 3' },
    ])
  })

  it('reads go test output, in the package directory when the module is known', () => {
    const output = lines(
      '--- FAIL: TestAdd (0.00s)',
      '    calc_test.go:12: Add(2, 2) = 5; want 4',
      '--- FAIL: TestParse (0.00s)',
      '    --- FAIL: TestParse/empty (0.00s)',
      '        parse_test.go:21: Parse("") returned no error',
      'FAIL',
      'FAIL\texample.com/demo/calc\t0.003s',
      'ok  \texample.com/demo/format\t0.002s',
      '=== RUN   TestRoot',
      '    root_test.go:5: root failed',
      'FAIL\texample.com/demo\t0.001s',
      'FAIL',
    )
    expect(parse(output, { goModule: 'example.com/demo' })).toEqual([
      { path: 'calc/calc_test.go', start_line: 12, end_line: 12, annotation_level: 'failure', title: 'TestAdd', message: 'Add(2, 2) = 5; want 4' },
      { path: 'calc/parse_test.go', start_line: 21, end_line: 21, annotation_level: 'failure', title: 'TestParse/empty', message: 'Parse("") returned no error' },
      { path: 'root_test.go', start_line: 5, end_line: 5, annotation_level: 'failure', title: 'TestRoot', message: 'root failed' },
    ])
    expect(parse(output).map((a) => a.path)).toEqual(['calc_test.go', 'parse_test.go', 'root_test.go'])
  })

  it('reads the generic path:line[:col]: message of compilers and linters', () => {
    const output = lines(
      "src/main.c:10:5: error: 'count' undeclared (first use in this function)",
      "src/main.c:10:5: note: each undeclared identifier is reported only once for each function it appears in",
      'src/app.py:12: error: Incompatible return value type (got "str", expected "int")  [return-value]',
      'scripts/build.sh:3:8: warning: Double quote to prevent globbing and word splitting. [SC2086]',
      'Makefile:4: *** missing separator.  Stop.',
      'Compiled at 12:30:45: done',
    )
    expect(parse(output).map((a) => [a.path, a.start_line, a.start_column, a.annotation_level, a.message])).toEqual([
      ['src/main.c', 10, 5, 'failure', "'count' undeclared (first use in this function)"],
      ['src/app.py', 12, undefined, 'failure', 'Incompatible return value type (got "str", expected "int")  [return-value]'],
      ['scripts/build.sh', 3, 8, 'warning', 'Double quote to prevent globbing and word splitting. [SC2086]'],
      ['src/main.c', 10, 5, 'notice', 'each undeclared identifier is reported only once for each function it appears in'],
    ])
  })

  it('keeps paths inside the repository only, relative to it', () => {
    const output = lines(
      `${ROOT}/src/a.ts(1,1): error TS1005: ';' expected.`,
      `./src/b.ts(2,1): error TS1005: ';' expected.`,
      `src/lib/../c.ts(3,1): error TS1005: ';' expected.`,
      `/home/runner/work/demo/other/src/d.ts(4,1): error TS1005: ';' expected.`,
      `../outside.ts(5,1): error TS1005: ';' expected.`,
      `node_modules/@types/node/globals.d.ts(6,1): error TS2300: Duplicate identifier 'x'.`,
      `${ROOT}/packages/web/node_modules/lib/index.d.ts(7,1): error TS2300: Duplicate identifier 'y'.`,
    )
    expect(parse(output).map((a) => a.path)).toEqual(['src/a.ts', 'src/b.ts', 'src/c.ts'])
    expect(parseAnnotations(`${ROOT}/src/a.ts(1,1): error TS1005: ';' expected.`, { repoRoot: `${ROOT}/` })[0]!.path).toBe('src/a.ts')
  })

  it('merges duplicates, and keeps at most maxPerCommand, failures first', () => {
    const warnings = Array.from({ length: 30 }, (_, i) => `src/w.ts:${i + 1}:1: warning: unused`)
    const errors = Array.from({ length: 40 }, (_, i) => `src/e.ts:${i + 1}:1: error: broken`)
    const output = lines(...warnings, ...errors, ...errors)
    const all = parse(output, { maxPerCommand: 1000 })
    expect(all).toHaveLength(70)
    const capped = parse(output)
    expect(capped).toHaveLength(50)
    expect(capped.filter((a) => a.annotation_level === 'failure')).toHaveLength(40)
    expect(capped.slice(40).map((a) => a.start_line)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10])
    expect(parse(output, { maxPerCommand: 5 })).toHaveLength(5)
  })

  it('finds nothing in output without locations', () => {
    expect(parse(lines('npm ERR! code ELIFECYCLE', 'npm ERR! errno 1', 'Error: Process completed with exit code 1.', 'Done in 2.5s'))).toEqual([])
    expect(parse('')).toEqual([])
  })

  it('keeps titles within GitHub\'s 255 characters', () => {
    const [annotation] = parse(lines(` FAIL  tests/a.test.ts > ${'long name '.repeat(40)}`, 'Error: boom', ' ❯ tests/a.test.ts:1:1'))
    expect(annotation!.title!.length).toBeLessThanOrEqual(255)
  })
})

describe('stripAnsi', () => {
  it('removes colours, cursor moves and hyperlinks', () => {
    expect(stripAnsi('\u001b[1m\u001b[31mred\u001b[39m\u001b[22m \u001b[2K\u001b[1Gline \u001b]8;;https://x.test\u0007link\u001b]8;;\u0007')).toBe('red line link')
  })
})

describe('node --test (its real output)', () => {
  let dir: string
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'converge-node-test-'))
    await mkdir(join(dir, 'test'))
    await writeFile(join(dir, 'test', 'math.test.js'), [
      "const test = require('node:test')",
      "const assert = require('node:assert')",
      "test('adds', () => { assert.strictEqual(1 + 1, 3) })",
      "test('passes', () => {})",
      '',
    ].join('\n'))
  })
  afterAll(() => rm(dir, { recursive: true, force: true }))
  const output = (reporter: string) => new Promise<string>((done) => {
    execFile(process.execPath, ['--test', `--test-reporter=${reporter}`, 'test/'], { cwd: dir }, (_error, stdout, stderr) => done(stdout + stderr))
  })

  it.each(['tap', 'spec'])('the %s reporter: the failing assertion, with the test\'s name and the message', async (reporter) => {
    const annotations = parseAnnotations(await output(reporter), { repoRoot: dir })
    expect(annotations).toEqual([expect.objectContaining({
      path: 'test/math.test.js', start_line: 3, annotation_level: 'failure', title: 'adds',
      message: expect.stringContaining('Expected values to be strictly equal'),
    })])
  })
})
