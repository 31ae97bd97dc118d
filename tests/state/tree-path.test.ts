import { describe, expect, it } from 'vitest'
import { InvalidTreePathError, assertTreePath } from '../../src/git/tree-path.js'

describe('assertTreePath', () => {
  it.each(['a', '.converge/state.json', '.converge/issues/42/plan.json', 'with space/ü.md', '..hidden', 'a.'])(
    'accepts %j',
    (path) => {
      expect(() => assertTreePath(path)).not.toThrow()
    },
  )

  it.each([
    ['', /empty/],
    ['/etc/passwd', /relative/],
    ['../secret', /".." segment/],
    ['a/../../b', /".." segment/],
    ['./a', /"\." segment/],
    ['a//b', /empty segment/],
    ['a/', /empty segment/],
    ['a\nb', /control character/],
    ['a\u0000b', /control character/],
  ])('refuses %j', (path, reason) => {
    expect(() => assertTreePath(path)).toThrow(InvalidTreePathError)
    expect(() => assertTreePath(path)).toThrow(reason)
  })
})
