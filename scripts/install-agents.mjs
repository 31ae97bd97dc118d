#!/usr/bin/env node
/**
 * Installs the agent CLIs the real-agent suites run (tests/agents/) into a cache folder, at the versions pinned in
 * scripts/agent-clis.json (the versions the presets are tested with, which the README names): too big for the default
 * `npm ci` (about 900 MB, each ships its native binary or bundle in the package).
 *
 *   node scripts/install-agents.mjs                    installs what is missing into .cache/agent-clis
 *   CONVERGE_AGENT_CLIS_DIR=/path node …               elsewhere
 *   CONVERGE_AGENT_CLIS_VERSIONS=latest node …         the newest releases instead (the scheduled agents workflow)
 *
 * Prints the folder whose node_modules/.bin holds `claude`, `codex` and `gemini`; with `latest`, the versions it
 * installed on stderr. Node built-ins only.
 */
import { readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { installedVersion, installIntoCache } from './cache-install.mjs'

const PINNED = JSON.parse(readFileSync(join(import.meta.dirname, 'agent-clis.json'), 'utf8'))
const latest = process.env.CONVERGE_AGENT_CLIS_VERSIONS === 'latest'

const dir = resolve(process.env.CONVERGE_AGENT_CLIS_DIR || join(import.meta.dirname, '..', '.cache', 'agent-clis'))
const installed = (name) => installedVersion(dir, name)
const wanted = Object.fromEntries(Object.entries(PINNED).map(([name, version]) => [name, latest ? 'latest' : version]))
const missing = Object.entries(wanted).filter(([name, version]) => version === 'latest' || installed(name) !== version)
if (missing.length) installIntoCache(dir, Object.entries(wanted).map(([name, version]) => `${name}@${version}`))
if (latest) for (const name of Object.keys(PINNED)) console.error(`${name} ${installed(name)} (pinned: ${PINNED[name]})`)
console.log(dir)
