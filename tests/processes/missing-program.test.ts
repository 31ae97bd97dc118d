import { describe, expect, it } from 'vitest'
import { missingProgram } from '../../src/processes/missing-program.js'

describe('a check that could not start for a missing program', () => {
  it.each([
    ['sh: 1: mocha: not found', 'mocha'],
    ['> bytes@3.1.2 test\n> mocha --check-leaks\n\nsh: 1: mocha: not found\n', 'mocha'],
    ['bash: jest: command not found', 'jest'],
    ['/bin/sh: line 1: pytest: command not found', 'pytest'],
    ['zsh: command not found: cargo', 'cargo'],
    ['npm error npx canceled due to missing packages and no YES option: ["mocha@12.0.3"]', 'mocha'],
    ['npm error npx canceled due to missing packages and no YES option: ["@vitest/cli@1.0.0"]', '@vitest/cli'],
  ])('names the program of %j', (output, program) => {
    expect(missingProgram({ command: 'npm test', exit_code: 1, output_tail: output })).toEqual({ command: 'npm test', program })
  })

  it('exit 127 without a message names the command\'s program; a check that ran and failed is no missing program', () => {
    expect(missingProgram({ command: 'tox -e py', exit_code: 127, output_tail: '' })).toEqual({ command: 'tox -e py', program: 'tox' })
    expect(missingProgram({ command: 'npm test', exit_code: 1, output_tail: 'AssertionError: expected 1 to equal 2\n  1 failing' })).toBeUndefined()
    expect(missingProgram({ command: 'npm test', exit_code: 0, output_tail: 'sh: 1: mocha: not found' })).toBeUndefined()
  })
})
