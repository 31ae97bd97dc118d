import { describe, expect, it } from 'vitest'
import { stripAnsi } from '../../src/report/ansi.js'

describe('stripAnsi', () => {
  it('removes colours, alone and back to back, and leaves the text between them', () => {
    expect(stripAnsi('\u001b[1m\u001b[46m RUN \u001b[49m\u001b[22m \u001b[36mv4\u001b[39m')).toBe(' RUN  v4')
    expect(stripAnsi(' \u001b[31mTest Files  1 failed\u001b[39m | 59 passed')).toBe(' Test Files  1 failed | 59 passed')
  })

  it('removes cursor moves, OSC hyperlinks (either terminator) and two-character sequences', () => {
    expect(stripAnsi('a\u001b[2K\u001b[1Gb\u001b[?25lc')).toBe('abc')
    expect(stripAnsi('\u001b]8;;https://example.test\u0007link\u001b]8;;\u001b\\ after')).toBe('link after')
    expect(stripAnsi('x\u001bMy\u001b7z')).toBe('xy\u001b7z')
  })

  it('leaves text without sequences as it is', () => {
    const text = 'ok 3 tests passed\n[brackets] stay'
    expect(stripAnsi(text)).toBe(text)
  })
})
