// Runs git for the emulator in a small process of its own. Spawning from a test worker forks a process of hundreds
// of megabytes (about 9 ms a spawn on a 2-core machine); spawning from this one costs a fifth of that. The
// requests and answers are the arguments, input and output of one `git` run each.
import { spawn } from 'node:child_process'

process.on('message', ({ id, args, input, env }) => {
  const child = spawn('git', args, { env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] })
  const stdout = []
  const stderr = []
  child.stdout.on('data', (chunk) => stdout.push(chunk))
  child.stderr.on('data', (chunk) => stderr.push(chunk))
  child.on('error', (error) => process.send({ id, error: error.message }))
  child.on('close', (code) => process.send({ id, code, stdout: Buffer.concat(stdout), stderr: Buffer.concat(stderr).toString('utf8') }))
  child.stdin.on('error', () => {})
  child.stdin.end(input ?? '')
})
process.on('disconnect', () => process.exit(0))
