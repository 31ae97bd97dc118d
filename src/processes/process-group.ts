/**
 * Ending a command together with everything it started. Commands are spawned detached, so each leads a new
 * process group whose id is its pid, and its children and grandchildren stay in that group unless they leave it
 * on purpose (`setsid`, as daemons do). POSIX only, like the runners Converge supports (Linux, macOS).
 */
import { readdir, readFile } from 'node:fs/promises'
import { setTimeout as delay } from 'node:timers/promises'

const POLL_MS = 50
/** How long to wait for the group to disappear after SIGKILL, which cannot be refused but may take effect later. */
const SIGKILL_SETTLE_MS = 1000

/**
 * Ends every process of group `pgid`: SIGTERM, then SIGKILL once `graceMs` has passed if anything is still alive.
 * Resolves when nothing in the group is alive, or at the latest {@link SIGKILL_SETTLE_MS} after the SIGKILL.
 */
export async function terminateGroup(pgid: number, graceMs: number): Promise<void> {
  if (!signalGroup(pgid, 'SIGTERM')) return
  if (await waitForGroupEnd(pgid, graceMs)) return
  signalGroup(pgid, 'SIGKILL')
  await waitForGroupEnd(pgid, SIGKILL_SETTLE_MS)
}

/** Sends `signal` (0: none, only the check) to the group; false when the group has no process left at all. */
function signalGroup(pgid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pgid, signal)
    return true
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ESRCH') return false
    // Members that may not be signalled (a setuid program) are still there.
    if (code === 'EPERM') return true
    throw error
  }
}

/** The environment variable every command Converge starts carries, with a value of its own (see {@link endTagged}). */
export const PROCESS_TAG_VARIABLE = 'CONVERGE_PROCESS_TAG'

/**
 * Ends (SIGKILL) every process whose environment carries `tag`: what a command started and detached from its group
 * (`setsid`, a double fork, `nohup … &`) so that it outlives the command — a watcher that restores a bug after the
 * checks passed, or kills the next task's baseline. Repeats while new ones appear (a process forking as it is
 * killed), a few rounds at most. Linux only (/proc); elsewhere nothing to read, nothing ended. Returns how many
 * processes it ended. A process that scrubs its own environment is not found: docs/security.md names the limit.
 */
export async function endTagged(tag: string): Promise<number> {
  const needle = Buffer.from(`${PROCESS_TAG_VARIABLE}=${tag}\0`)
  let ended = 0
  for (let round = 0; round < 5; round++) {
    const found = await taggedProcesses(needle)
    if (found.length === 0) break
    for (const pid of found) {
      try {
        process.kill(pid, 'SIGKILL')
        ended++
      } catch {
        // exited meanwhile, or not ours to signal
      }
    }
    await delay(POLL_MS)
  }
  return ended
}

async function taggedProcesses(needle: Buffer): Promise<number[]> {
  let entries: string[]
  try {
    entries = await readdir('/proc')
  } catch {
    return []
  }
  const pids = entries.filter((entry) => /^\d+$/.test(entry)).map(Number).filter((pid) => pid !== process.pid)
  const tagged = await Promise.all(pids.map(async (pid) => {
    const environ = await readFile(`/proc/${pid}/environ`).catch(() => undefined)
    if (!environ || environ.length === 0) return undefined
    // A zombie has exited already: it holds nothing and cannot be killed again.
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '')
    if (/\) [ZX] /.test(stat)) return undefined
    return environ.includes(needle) ? pid : undefined
  }))
  return tagged.filter((pid): pid is number => pid !== undefined)
}

async function waitForGroupEnd(pgid: number, withinMs: number): Promise<boolean> {
  const deadline = performance.now() + withinMs
  for (;;) {
    if (!(await hasLiveMember(pgid))) return true
    const left = deadline - performance.now()
    if (left <= 0) return false
    await delay(Math.min(POLL_MS, left))
  }
}

/**
 * kill() also reaches zombies: processes that have exited but were not reaped yet. An orphaned grandchild is
 * reaped by PID 1, which in containers is often a program that never does, so its zombie would keep the group
 * "alive" for ever. On Linux the members' states tell; elsewhere (no /proc) every member counts as alive.
 */
async function hasLiveMember(pgid: number): Promise<boolean> {
  if (!signalGroup(pgid, 0)) return false
  const states = await linuxMemberStates(pgid)
  return states === undefined || states.some((state) => state !== 'Z' && state !== 'X')
}

/** The state letters (`R`, `S`, `Z`, ...) of the processes in group `pgid`, or undefined without /proc. */
async function linuxMemberStates(pgid: number): Promise<string[] | undefined> {
  let entries: string[]
  try {
    entries = await readdir('/proc')
  } catch {
    return undefined
  }
  const states = await Promise.all(entries.filter((entry) => /^\d+$/.test(entry)).map((pid) => memberState(pid, pgid)))
  return states.filter((state) => state !== undefined)
}

async function memberState(pid: string, pgid: number): Promise<string | undefined> {
  let stat: string
  try {
    stat = await readFile(`/proc/${pid}/stat`, 'utf8')
  } catch {
    return undefined // exited in the meantime
  }
  // `pid (comm) state ppid pgrp ...`: comm may contain spaces and parentheses, so read from the last `)`.
  const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return Number(pgrp) === pgid ? state : undefined
}
