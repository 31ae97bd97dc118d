/**
 * Packages from the npm registry installed into a cache folder of their own, outside the project's node_modules
 * (the agent CLIs, the Node the action declares): what `scripts/install-agents.mjs` and
 * `scripts/install-action-node.mjs` share. Node built-ins only.
 */
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

/** The version of `name` installed in `dir`, or undefined. */
export function installedVersion(dir, name) {
  try {
    return JSON.parse(readFileSync(join(dir, 'node_modules', name, 'package.json'), 'utf8')).version
  } catch {
    return undefined
  }
}

/** Installs `specs` (`name@version`) into `dir`; npm's report goes to stderr, so a script's stdout stays its answer. */
export function installIntoCache(dir, specs) {
  mkdirSync(dir, { recursive: true })
  if (!existsSync(join(dir, 'package.json'))) writeFileSync(join(dir, 'package.json'), '{ "private": true }\n')
  console.error(`installing ${specs.join(', ')} into ${dir}`)
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'
  execFileSync(npm, ['install', '--no-audit', '--no-fund', '--no-save', '--prefix', dir, ...specs], { stdio: ['ignore', 2, 'inherit'] })
}
