import { describe, expect, it } from 'vitest'
import { elapsedMs, formatDuration, progressBar } from '../../src/report/format.js'

describe('numbers in reports', () => {
  it.each([
    [850, '850 ms'], [12_345, '12.3 s'], [245_000, '4m 05s'], [3_725_000, '1h 02m'],
  ])('formatDuration(%d) = %s', (ms, text) => {
    expect(formatDuration(ms)).toBe(text)
  })

  it('progressBar: one segment per task up to ten, full only when all are done, visible as soon as one is', () => {
    expect(progressBar(3, 5)).toBe('▰▰▰▱▱')
    expect(progressBar(0, 5)).toBe('▱▱▱▱▱')
    expect(progressBar(1, 300)).toBe('▰▱▱▱▱▱▱▱▱▱')
    expect(progressBar(299, 300)).toBe('▰▰▰▰▰▰▰▰▰▱')
    expect(progressBar(300, 300)).toBe('▰▰▰▰▰▰▰▰▰▰')
  })

  it('elapsedMs between timestamps, undefined when one is missing', () => {
    expect(elapsedMs('2025-06-01T09:03:00Z', '2025-06-01T09:06:17Z')).toBe(197_000)
    expect(elapsedMs('2025-06-01T09:03:00Z', null)).toBeUndefined()
  })
})
