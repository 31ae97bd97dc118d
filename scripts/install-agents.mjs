#!/usr/bin/env node
/**
 * Installs the agent CLIs the real-agent suite runs (tests/agents/real-cli.test.ts) into a cache folder, at pinned
 * versions: too big for the default `npm ci` (about 900 MB, each ships its native binary or bundle in the package).
 *
 *   node scripts/install-agents.mjs            installs what is missing into .cache/agent-clis
 *   CONVERGE_AGENT_CLIS_DIR=/path node …       elsewhere
 *
 * Prints the folder whose node_modules/.bin holds `claude`, `codex` and `gemini`. Node built-ins only.
 */
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'

export const AGENT_CLIS = {
  '@anthropic-ai/claude-code': '2.1.332',
  '@openai/codex': '0.169.0',
  '@google/gemini-cli': '0.61.0',
}

const dir = resolve(process.env.CONVERGE_AGENT_CLIS_DIR || join(import.meta.dirname, '..', '.cache', 'agent-clis'))
const installed = (name) => {
  try {
    return JSON.parse(readFileSync(join(dir, 'node_modules', name, 'package.json'), 'utf8')).version
  } catch {
    return undefined
  }
}
const missing = Object.entries(AGENT_CLIS).filter(([name, version]) => installed(name) !== version)
if (missing.length) {
  mkdirSync(dir, { recursive: true })
  if (!existsSync(join(dir, 'package.json'))) writeFileSync(join(dir, 'package.json'), '{ "private": true }\n')
  const specs = Object.entries(AGENT_CLIS).map(([name, version]) => `${name}@${version}`)
  console.error(`installing ${missing.map(([name]) => name).join(', ')} into ${dir}`)
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'
  execFileSync(npm, ['install', '--no-audit', '--no-fund', '--no-save', '--prefix', dir, ...specs], { stdio: ['ignore', 'inherit', 'inherit'] })
}
console.log(dir)
