/**
 * Files a command writes for Converge to read (the executor's report, the agent CLI's output) are read with a cap:
 * their size is the command's choice, and a 300 MB result file read whole took 1.3 GB.
 */
import { open } from 'node:fs/promises'

/** The most of the executor's report (`$CONVERGE_RESULT_FILE`) read: a report is a few kilobytes of JSON. */
export const REPORT_BYTES = 1 << 20
/** The most of an agent CLI's machine-readable output (`$CONVERGE_AGENT_OUTPUT_FILE`) read, from its end. */
export const AGENT_OUTPUT_BYTES = 8 << 20

/**
 * At most `max` bytes of the file, from its start or its end, as UTF-8; a report cut so is no JSON any more, and is
 * ignored with the parser's reason, as any other unreadable report. Throws when the file cannot be opened.
 */
export async function readBounded(path: string, max: number, from: 'start' | 'end'): Promise<string> {
  const handle = await open(path, 'r')
  try {
    const { size } = await handle.stat()
    const length = Math.min(size, max)
    const buffer = Buffer.alloc(length)
    const { bytesRead } = await handle.read(buffer, 0, length, from === 'start' ? 0 : size - length)
    const text = buffer.subarray(0, bytesRead).toString('utf8')
    // From the end, the first line may be cut in the middle: it is dropped.
    return from === 'end' && size > max ? text.slice(text.indexOf('\n') + 1) : text
  } finally {
    await handle.close()
  }
}
