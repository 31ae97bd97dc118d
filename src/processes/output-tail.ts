/**
 * The last bytes of a command's output, kept in bounded memory however much the command prints, and turned into
 * text with secrets masked.
 *
 * Secrets are masked in the assembled tail, not chunk by chunk, so a value split across two writes is still found.
 * To keep the tail from starting with the end of a secret whose beginning has already been dropped, the buffer
 * holds `longest pattern - 1` bytes more than the tail it returns: any appearance reaching into the returned part
 * then lies whole in the buffer and is masked. Limitation: stdout and stderr share one tail in arrival order, so a
 * value written in two pieces with the other stream's output landing in between is not recognised.
 */
import { maskTokenShapes } from '../model/secrets.js'
import { redact, secretPatterns } from './redact.js'

export class OutputTail {
  private readonly patterns: Buffer[]
  /** How many bytes the buffer must hold: the returned tail plus the overlap described above. */
  private readonly capacity: number
  private chunks: Buffer[] = []
  private held = 0
  private received = 0

  constructor(
    private readonly maxBytes: number,
    secrets: readonly string[],
  ) {
    this.patterns = secretPatterns(secrets)
    this.capacity = maxBytes + Math.max(0, (this.patterns[0]?.length ?? 0) - 1)
  }

  push(chunk: Buffer): void {
    this.received += chunk.length
    this.chunks.push(chunk)
    this.held += chunk.length
    // Whole chunks are dropped once the rest still covers the capacity: memory stays below capacity + one chunk.
    while (this.chunks.length > 1 && this.held - this.chunks[0].length >= this.capacity)
      this.held -= this.chunks.shift()!.length
  }

  /** Every byte received, including those no longer held. */
  get totalBytes(): number {
    return this.received
  }

  /** Did the command print more than the tail holds? */
  get truncated(): boolean {
    return this.received > this.maxBytes
  }

  /**
   * The last `maxBytes` bytes as text, secrets and credential shapes (a `ghp_…` nobody registered) masked: the
   * tail is recorded on the state branch as it is shown in the comment. Each `***` may make it a little longer or
   * shorter.
   */
  text(): string {
    const held = Buffer.concat(this.chunks)
    const buffer = held.subarray(Math.max(0, held.length - this.capacity))
    const cut = Math.max(0, buffer.length - this.maxBytes)
    const tail = redact(buffer, this.patterns, cut)
    return maskTokenShapes((this.truncated ? dropPartialCharacter(tail) : tail).toString('utf8'))
  }
}

/** A tail cut inside a UTF-8 character starts with its continuation bytes (10xxxxxx): drop them. */
function dropPartialCharacter(bytes: Buffer): Buffer {
  let start = 0
  while (start < 3 && start < bytes.length && (bytes[start] & 0xc0) === 0x80) start++
  return bytes.subarray(start)
}
