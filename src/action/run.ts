import { tmpdir } from 'node:os'
import { resolve } from 'node:path'
import * as core from '@actions/core'
import { credentialValues, executorEnvironment } from '../processes/environment.js'
import { hideLaunchSecrets } from '../processes/launch-environment.js'
import { encodedCredentials } from '../git/sealed-remote.js'
import { clientFromEnvironment } from '../github/client.js'
import { secretForms } from '../model/secrets.js'
import { DryRunStore } from '../state/dry-run-store.js'
import { GitHubStore } from '../state/github-store.js'
import type { Outcome } from './commands.js'
import { checkoutProtection } from './checkout-credentials.js'
import { describeRemoved, FileCommandGuard } from './file-commands.js'
import { readRunContext } from './context.js'
import { readInputs } from './inputs.js'
import { outputsOf } from './outputs.js'
import { routeEvent } from './route.js'

/**
 * The action, top to bottom: read the inputs and the event, decide what is asked, run the command,
 * report (outputs, job summary, step result).
 */
export async function runAction(env: NodeJS.ProcessEnv): Promise<void> {
  const read = readInputs((name) => core.getInput(name))
  if (!read.ok) {
    core.setFailed(`Converge: invalid inputs\n${read.errors.map((e) => `- ${e}`).join('\n')}`)
    return
  }
  const inputs = read.inputs
  // The token, the form git sends it in, and the step's other secrets (named like a credential, or URLs with a
  // password), in every form they are looked for in: masked in the log by the runner, and by Converge in
  // everything it records or posts.
  const executorEnv = executorEnvironment(env)
  const plannerEnv = Object.fromEntries(inputs['planner-env'].flatMap((name) => (executorEnv[name] === undefined ? [] : [[name, executorEnv[name]]])))
  const unset = inputs['planner-env'].filter((name) => executorEnv[name] === undefined)
  if (unset.length && inputs.planner === 'command') core.warning(`Converge: planner-env names ${unset.join(', ')}, not set in the step's env: the planner command runs without ${unset.length === 1 ? 'it' : 'them'}`)
  const secrets = [inputs['github-token'], encodedCredentials(inputs['github-token']), ...credentialValues(executorEnv)]
  for (const secret of secrets) for (const form of secretForms(secret)) core.setSecret(form)
  // The runner's file commands as they are before any command runs: put back before the step ends.
  const fileCommands = await FileCommandGuard.start(env)
  // Everything that reads the step's secrets from the environment has (the executor's are kept in memory): keep
  // them out of /proc/<pid>/environ, where the commands Converge starts could read them from their parent; and the
  // paths of the runner's file commands with them (Converge's own writes get them back at the end).
  const launch = hideLaunchSecrets(env, [...secrets, ...fileCommands.paths()])
  if (launch.problem && process.platform === 'linux') core.warning(`Converge: the token stays readable in /proc/${process.pid}/environ: ${launch.problem}`)
  else if (launch.problem) core.debug(`Converge: ${launch.problem}`)
  else if (launch.hidden.length) core.info(`Converge: wrote over ${launch.hidden.join(', ')} in /proc/${process.pid}/environ, so the commands it runs cannot read the step's secrets there`)

  const ctx = readRunContext()
  const route = routeEvent(ctx.eventName, ctx.payload as Parameters<typeof routeEvent>[1], {
    command: inputs.command,
    ...(inputs['issue-number'] !== undefined ? { issueNumber: inputs['issue-number'] } : {}),
    planLabel: inputs['plan-label'],
    executeLabel: inputs['execute-label'],
    commandPrefix: inputs['command-prefix'],
    ...(ctx.actor ? { actor: ctx.actor } : {}),
  })
  if (route.kind === 'misconfigured') {
    core.setFailed(`Converge: ${route.message}`)
    return
  }
  const client = clientFromEnvironment(inputs['github-token'], env, { debug: core.debug, warning: core.warning })
  const stateStore = new GitHubStore({ client, ...ctx.repo, branch: inputs['state-branch'] })
  const tempDir = env.RUNNER_TEMP || tmpdir()
  if (route.kind === 'ignore') {
    fileCommands.reinstate(process.env)
    // A scheduled run (no command) still makes the board when asked to.
    if (inputs.board === 'artifact') await publishBoard(stateStore, tempDir)
    else core.notice(`Converge: nothing to do (${route.reason})`)
    return
  }

  const store = inputs['dry-run'] ? new DryRunStore(stateStore) : stateStore
  if (inputs['dry-run']) core.info('Dry run: nothing is written to the state branch, the issue or the pull request.')
  core.info(route.kind === 'command' ? `Converge ${route.command} (${route.source}) by @${route.actor.login}` : `Unknown command from @${route.actor.login}`)

  let outcome: Outcome
  try {
    const repoDir = resolve(env.GITHUB_WORKSPACE || process.cwd(), inputs['working-directory'])
    // A cancelled job sends SIGINT, then SIGTERM: end the running commands (they have process groups of
    // their own) and let the run record what it has.
    const cancel = new AbortController()
    for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => cancel.abort())
    const checkout = checkoutProtection({ repoDir, runnerTemp: env.RUNNER_TEMP, serverUrl: ctx.serverUrl, mode: inputs['persisted-credentials'] })
    // The commands (planners, execution, reports) are loaded only once there is one to run: a run that stops at
    // its inputs or its event starts without compiling them (they are a chunk of the bundle of their own).
    const { dispatch } = await import('./commands.js')
    outcome = await dispatch({ inputs, ctx, client, store, now: new Date().toISOString(), repoDir, tempDir, signal: cancel.signal, secrets, executorEnv, plannerEnv, checkout }, route)
  } finally {
    const s = client.stats
    core.info(`GitHub API: ${s.requests} requests (${s.notModified} answered 304 at no rate-limit cost)`)
    fileCommands.reinstate(process.env)
    const removed = describeRemoved(await fileCommands.restore())
    if (removed) {
      core.warning(`Converge: ${removed}`)
      await core.summary.addRaw(`> [!WARNING]\n> Converge: ${removed}.\n\n`, true).write()
    }
  }
  for (const [name, value] of Object.entries(outputsOf(outcome))) core.setOutput(name, value)
  await core.summary.addRaw(outcome.summary.replace(/^<!-- converge:ISS-\d+ -->\n/, ''), true).write()
  if (inputs.board === 'artifact') await publishBoard(stateStore, tempDir)
  // What Converge wrote is its own; anything written since (by a process a command left behind) is not.
  await fileCommands.accept()
  const late = describeRemoved(await fileCommands.restore())
  if (late) core.warning(`Converge: ${late}`)
  if (outcome.failure) core.setFailed(`Converge: ${outcome.failure}`)
  else if (outcome.warning) core.warning(outcome.warning)
  if (outcome.notice) core.notice(outcome.notice)
}

/** `board: artifact`: the board made after the command, from the state branch it left, named in the job summary. */
async function publishBoard(store: GitHubStore, tempDir: string): Promise<void> {
  const { boardArtifactOrWarning } = await import('./board.js')
  const board = await boardArtifactOrWarning(store, tempDir, new Date().toISOString())
  if ('warning' in board) return core.warning(board.warning)
  core.setOutput('board-path', board.path)
  core.info(`Converge: wrote the board to ${board.path}`)
  await core.summary.addRaw(`\n${board.summary}\n`, true).write()
}
