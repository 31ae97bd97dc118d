import { describe, expect, it } from 'vitest'
import { OutputTail } from '../../src/processes/output-tail.js'
import { redact, secretPatterns } from '../../src/processes/redact.js'

const SECRET = 'ghs_16C7e42F292c6912E7710c838347Ae178B4a'
const mask = (text: string, secrets: string[]) => redact(Buffer.from(text), secretPatterns(secrets)).toString()
const base64 = (text: string) => Buffer.from(text).toString('base64')

describe('redact', () => {
  it('masks every appearance of every secret', () => {
    expect(mask(`token=${SECRET}\nagain ${SECRET}${SECRET}.`, [SECRET, 'hunter2'])).toBe('token=***\nagain ***.')
    expect(mask('password: hunter2', [SECRET, 'hunter2'])).toBe('password: ***')
  })

  it('masks overlapping appearances whole, so no part of either survives', () => {
    expect(mask('xxABCDEFGHyy', ['ABCDEF', 'DEFGH'])).toBe('xx***yy')
    expect(mask('aaaaa', ['aaa'])).toBe('***')
  })

  it('masks the base64 form of a secret, alone or inside a longer encoded text at any offset', () => {
    expect(mask(`echo ${base64(SECRET)} | base64 -d`, [SECRET])).toBe('echo *** | base64 -d')
    for (const user of ['x', 'xy', 'x-access-token']) {
      const masked = mask(`Authorization: Basic ${base64(`${user}:${SECRET}`)}`, [SECRET])
      const [, before, after] = /^Authorization: Basic ([\w+/]*)\*\*\*(.*)$/.exec(masked)!
      // Left unmasked: the characters that also encode `user:` before the secret, and the last one with its padding.
      expect(before.length).toBeLessThanOrEqual(Math.ceil((8 * (user.length + 1)) / 6))
      expect(after).toMatch(/^[\w+/]?=*$/)
    }
  })

  it('gives short secrets no base64 forms (only the value and its reverse), and ignores empty ones', () => {
    expect(secretPatterns(['short', '']).map(String)).toEqual(['short', 'trohs'])
    expect(secretPatterns(['12345678']).map(String)).toEqual(['MTIzNDU2Nzg=', 'MTIzNDU2Nz', 'EyMzQ1Njc4', 'xMjM0NTY3O', '12345678', '87654321'])
  })

  it('masks a secret reversed and URL-encoded, as a command could print it to get past the masking', () => {
    const secret = 'sk-ant/key+0123=456'
    expect(mask(`reversed: ${[...secret].reverse().join('')}; encoded: ${encodeURIComponent(secret)}.`, [secret])).toBe('reversed: ***; encoded: ***.')
  })

  it('masks secrets that are not ASCII', () => {
    expect(mask('clé: mötörhead-ünïcode!', ['mötörhead-ünïcode'])).toBe('clé: ***!')
  })
})

describe('OutputTail', () => {
  const tailOf = (chunks: string[], maxBytes: number, secrets: string[] = []) => {
    const tail = new OutputTail(maxBytes, secrets)
    for (const chunk of chunks) tail.push(Buffer.from(chunk))
    return tail
  }

  it('keeps the last bytes and counts them all', () => {
    const tail = tailOf(['0123456789', 'abcdefghij', 'KLMNO'], 8)
    expect(tail.text()).toBe('hijKLMNO')
    expect(tail.totalBytes).toBe(25)
    expect(tail.truncated).toBe(true)
    expect(tailOf(['short'], 8).truncated).toBe(false)
  })

  it('masks a secret written in several pieces', () => {
    const pieces = [SECRET.slice(0, 3), SECRET.slice(3, 20), `${SECRET.slice(20)}\n`]
    expect(tailOf(['token: ', ...pieces], 1024, [SECRET]).text()).toBe('token: ***\n')
  })

  it('does not start with the end of a secret whose beginning was cut off', () => {
    for (let kept = 1; kept < SECRET.length; kept++) {
      // The tail boundary falls `kept` bytes before the secret's end.
      const text = tailOf(['header ', SECRET, ' and then some'], kept + ' and then some'.length, [SECRET]).text()
      expect(text).toBe('*** and then some')
    }
  })

  it('does not start with half a UTF-8 character', () => {
    expect(tailOf(['é'.repeat(10)], 5).text()).toBe('éé')
  })
})
