import { existsSync, readFileSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { baseEnvironment } from '../../src/processes/environment.js'
import { runCommand, type CommandSpec } from '../../src/processes/run-command.js'

let dir: string
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'converge-exec-test-'))
})
afterAll(() => rm(dir, { recursive: true, force: true }))

type Options = Partial<Omit<CommandSpec, 'command' | 'argv'>>
const env = () => baseEnvironment(process.env)
const sh = (command: string, options: Options = {}) =>
  runCommand({ command, cwd: dir, env: env(), timeoutMs: 10_000, ...options })
/** `node -e script`: run directly, without a shell. */
const node = (script: string, options: Options = {}) =>
  runCommand({ argv: [process.execPath, '-e', script], cwd: dir, env: env(), timeoutMs: 10_000, ...options })

/** Alive means running or sleeping: an exited process nobody has reaped yet (a zombie) is dead. */
function isAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return !/^[ZX]/.test(stat.slice(stat.lastIndexOf(')') + 2))
  } catch {
    return false
  }
}

const pidsIn = (output: string) => [...output.matchAll(/^pid (\d+)$/gm)].map((match) => Number(match[1]))

describe('runCommand: exit and output', () => {
  it('reports the exit code of a shell line and of an argv', async () => {
    expect(await sh('true')).toMatchObject({ exitCode: 0, signal: null, timedOut: false, aborted: false })
    expect((await sh('echo failing >&2; exit 3')).exitCode).toBe(3)
    expect((await sh('no-such-program-here')).exitCode).toBe(127)
    const result = await node('process.exit(4)')
    expect(result.exitCode).toBe(4)
    expect(result.command).toBe(`${process.execPath} -e 'process.exit(4)'`)
  })

  it('rejects when the command cannot be started', async () => {
    await expect(sh('true', { cwd: join(dir, 'missing') })).rejects.toThrow(/could not start true/)
    await expect(runCommand({ argv: ['no-such-program-here'], cwd: dir, env: env(), timeoutMs: 1000 })).rejects.toThrow(
      /ENOENT/,
    )
    await expect(sh('true', { timeoutMs: 0 })).rejects.toThrow(RangeError)
  })

  it('interleaves stdout and stderr in arrival order', async () => {
    const result = await sh('echo one; sleep 0.1; echo two >&2; sleep 0.1; echo three')
    expect(result).toMatchObject({ outputTail: 'one\ntwo\nthree\n', outputBytes: 14, truncated: false })
  })

  it('keeps only the last maxTailBytes, in order', async () => {
    const result = await node('for (let i = 1; i <= 20000; i++) console.log(`line ${i}`)', { maxTailBytes: 1000 })
    const lines = result.outputTail.split('\n')
    expect(result.outputTail.length).toBe(1000)
    expect(result.outputTail.endsWith('line 19999\nline 20000\n')).toBe(true)
    const numbers = lines.slice(1, -1).map((line) => Number(line.slice('line '.length)))
    expect(numbers).toEqual(numbers.map((_, index) => numbers[0] + index))
    expect(result.truncated).toBe(true)
    expect(result.outputBytes).toBe(Array.from({ length: 20000 }, (_, i) => `line ${i + 1}\n`).join('').length)
  })

  it('runs 50 MB of output through bounded memory', async () => {
    // Sampled right after a collection, memory shows what is still held rather than chunks awaiting collection.
    setFlagsFromString('--expose-gc')
    const collectGarbage = runInNewContext('gc') as () => void
    collectGarbage()
    const before = process.memoryUsage().arrayBuffers
    let peak = 0
    const sampler = setInterval(() => {
      collectGarbage()
      peak = Math.max(peak, process.memoryUsage().arrayBuffers - before)
    }, 10)
    const result = await node(
      "const mb = Buffer.alloc(1 << 20, 'x'); for (let i = 0; i < 50; i++) process.stdout.write(mb); process.stdout.write('end\\n')",
      // A collection every 10 ms slows the reading: over the usual 10 s at a load average of 20.
      { timeoutMs: 120_000 },
    )
    clearInterval(sampler)
    expect(result.outputBytes).toBe(50 * (1 << 20) + 4)
    expect(result.outputTail).toHaveLength(16 * 1024)
    expect(result.outputTail.endsWith('xxxend\n')).toBe(true)
    // Unbounded, this holds the whole 50 MB; chunks in flight vary with the machine's load, hence the margin.
    expect(peak).toBeLessThan(16 * (1 << 20))
  }, 180_000)

  it('gives the command /dev/null as standard input', async () => {
    expect((await sh('read answer; echo "read: $?"', { timeoutMs: 5000 })).outputTail).toBe('read: 1\n')
  })
})

describe('runCommand: ending the process group', () => {
  it('kills the whole group on timeout, grandchildren included', async () => {
    const result = await sh(
      'echo "pid $$"; sleep 100 & echo "pid $!"; sleep 100 >/dev/null 2>&1 & echo "pid $!"; sh -c \'sleep 100 & echo "pid $!"; wait\' & wait',
      { timeoutMs: 500, killGraceMs: 2000 },
    )
    expect(result).toMatchObject({ timedOut: true, aborted: false, exitCode: null, signal: 'SIGTERM' })
    expect(result.durationMs).toBeGreaterThanOrEqual(500)
    // Ended long before its `sleep 100`s (a bound for a loaded machine, not a measure).
    expect(result.durationMs).toBeLessThan(20_000)
    const pids = pidsIn(result.outputTail)
    expect(pids).toHaveLength(4)
    expect(pids.filter(isAlive)).toEqual([])
  })

  it('SIGKILLs a group that ignores SIGTERM once the grace period is over', async () => {
    const result = await sh('trap "" TERM; echo "pid $$"; sleep 100 & echo "pid $!"; wait', {
      timeoutMs: 300,
      killGraceMs: 700,
    })
    expect(result).toMatchObject({ timedOut: true, exitCode: null, signal: 'SIGKILL' })
    expect(result.durationMs).toBeGreaterThanOrEqual(300 + 700)
    expect(result.durationMs).toBeLessThan(20_000)
    expect(pidsIn(result.outputTail).filter(isAlive)).toEqual([])
  })

  it('SIGKILLs a node process that handles SIGTERM and keeps running', async () => {
    const result = await node(
      "process.on('SIGTERM', () => console.log('ignoring SIGTERM')); console.log(`pid ${process.pid}`); setInterval(() => {}, 1000)",
      { timeoutMs: 1000, killGraceMs: 500 },
    )
    expect(result).toMatchObject({ timedOut: true, signal: 'SIGKILL' })
    expect(result.outputTail).toContain('ignoring SIGTERM')
    expect(pidsIn(result.outputTail).filter(isAlive)).toEqual([])
  })

  it('stops the group when the signal aborts', async () => {
    const controller = new AbortController()
    setTimeout(() => controller.abort(), 300)
    const result = await sh('echo "pid $$"; sleep 100 & echo "pid $!"; wait', { signal: controller.signal })
    expect(result).toMatchObject({ aborted: true, timedOut: false, signal: 'SIGTERM' })
    expect(result.durationMs).toBeLessThan(20_000)
    expect(pidsIn(result.outputTail).filter(isAlive)).toEqual([])
  })

  it('does not start a command whose signal has already aborted', async () => {
    const marker = join(dir, 'started')
    const result = await sh(`touch '${marker}'`, { signal: AbortSignal.abort() })
    expect(result).toMatchObject({ aborted: true, exitCode: null, outputBytes: 0 })
    expect(existsSync(marker)).toBe(false)
  })

  it('ends what a finished command left running, even when it holds the output open', async () => {
    const started = Date.now()
    const result = await sh('sleep 100 & echo "pid $!"; sleep 100 >/dev/null 2>&1 & echo "pid $!"; echo done')
    expect(Date.now() - started).toBeLessThan(60_000) // it did not wait for the 100 s its children sleep
    expect(result).toMatchObject({ exitCode: 0, timedOut: false, signal: null })
    expect(result.outputTail).toContain('done\n')
    expect(pidsIn(result.outputTail).filter(isAlive)).toEqual([])
  })
})

describe('runCommand: untrusted text and secrets', () => {
  it('prints text passed through the environment instead of running it', async () => {
    const pwned = join(dir, 'pwned')
    const title = `Fix $(touch ${pwned}) and \`touch ${pwned}\` "; touch ${pwned}; echo '`
    const result = await sh('echo "$CONVERGE_TITLE"', { env: { ...env(), CONVERGE_TITLE: title } })
    expect(result.outputTail).toBe(`${title}\n`)
    expect(existsSync(pwned)).toBe(false)
  })

  it('does not pass the action inputs or the token on by default', async () => {
    process.env['INPUT_GITHUB-TOKEN'] = 'ghs_input_token_value'
    process.env.GITHUB_TOKEN = 'ghs_env_token_value'
    try {
      const result = await runCommand({ command: 'env', cwd: dir, timeoutMs: 5000 })
      expect(result.outputTail).not.toMatch(/INPUT_|GITHUB_TOKEN|ghs_/)
      expect(result.outputTail).toMatch(/^PATH=/m)
    } finally {
      delete process.env['INPUT_GITHUB-TOKEN']
      delete process.env.GITHUB_TOKEN
    }
  })

  it('masks secrets in the output, written whole, in pieces, or base64-encoded, and in the command', async () => {
    const secret = 'ghp_R4nd0mT0k3nV4lu3F0rT3st1ng0nly12'
    const script = `
      const s = process.env.SECRET
      const pause = () => new Promise((resolve) => setTimeout(resolve, 50))
      ;(async () => {
        console.log('whole: ' + s); await pause()
        console.error('on stderr: ' + s); await pause()
        process.stdout.write('split: ' + s.slice(0, 10)); await pause()
        process.stdout.write(s.slice(10, 20)); await pause()
        console.log(s.slice(20))
        console.log('basic: ' + Buffer.from('x-access-token:' + s).toString('base64'))
      })()`
    const result = await node(script, { env: { ...env(), SECRET: secret }, secrets: [secret] })
    const lines = result.outputTail.split('\n')
    expect(lines.slice(0, 3)).toEqual(['whole: ***', 'on stderr: ***', 'split: ***'])
    expect(lines[3]).toMatch(/^basic: [\w+/]{0,20}\*\*\*[\w+/]?=*$/)
    expect(result.outputTail).not.toContain(secret.slice(5, 15))

    const echoed = await sh(`echo ${secret}`, { secrets: [secret] })
    expect(echoed).toMatchObject({ command: 'echo ***', outputTail: '***\n' })
  })

  it('masks a secret cut by the start of the tail', async () => {
    const secret = 'sk-proj-0123456789abcdefghij'
    const result = await sh('printf "%s" "$SECRET"; printf "0123456789"', {
      env: { ...env(), SECRET: secret },
      secrets: [secret],
      maxTailBytes: 15,
    })
    expect(result.outputTail).toBe('***0123456789')
  })
})
