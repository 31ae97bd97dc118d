#!/usr/bin/env node
/**
 * What the release workflow needs to know about a version tag, checked before anything is published:
 *
 *   node scripts/release.mjs notes v1.2.3   prints the release notes: CHANGELOG.md's "## [1.2.3]" section
 *   node scripts/release.mjs major v1.2.3   prints the major tag the release moves (v1), or nothing for a pre-release
 *
 * Both refuse (exit 1, saying why) a tag that is not vMAJOR.MINOR.PATCH[-pre], one that is not package.json's
 * version, and a version CHANGELOG.md has no section for. Node built-ins only: it runs before `npm ci`.
 */
import { readFileSync } from 'node:fs'

const TAG = /^v(?<major>0|[1-9]\d*)\.(?:0|[1-9]\d*)\.(?:0|[1-9]\d*)(?<pre>-[0-9A-Za-z.-]+)?$/

/** The version a tag names, or a reason it is not a release tag. */
export function releaseOf(tag, packageVersion) {
  const match = TAG.exec(tag ?? '')
  if (!match) return { error: `"${tag}" is not a release tag: tag vMAJOR.MINOR.PATCH, e.g. v0.2.0 (or v1.0.0-rc.1)` }
  const version = tag.slice(1)
  if (version !== packageVersion) return { error: `${tag} is not the version in package.json (${packageVersion}): bump "version" and tag again` }
  return { version, major: match.groups.pre ? undefined : `v${match.groups.major}` }
}

/** The body of `## [version]` (or `## version`) in a Keep a Changelog file, without its heading. */
export function changelogSection(changelog, version) {
  const lines = changelog.split(/\r?\n/)
  const escaped = version.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  const heading = new RegExp(`^## \\[?${escaped}\\]?(?:\\s|$)`)
  const start = lines.findIndex((line) => heading.test(line))
  if (start < 0) return undefined
  const end = lines.findIndex((line, i) => i > start && /^## /.test(line))
  const body = lines.slice(start + 1, end < 0 ? undefined : end).join('\n').replace(/\n\[[^\]]+\]: \S+\s*$/gm, '').trim()
  return body || undefined
}

function main([command, tag]) {
  const packageVersion = JSON.parse(readFileSync('package.json', 'utf8')).version
  const release = releaseOf(tag, packageVersion)
  if (release.error) return fail(release.error)
  if (command === 'major') return void (release.major && console.log(release.major))
  if (command !== 'notes') return fail(`usage: node scripts/release.mjs notes|major <tag>`)
  const notes = changelogSection(readFileSync('CHANGELOG.md', 'utf8'), release.version)
  if (!notes) return fail(`CHANGELOG.md has no section "## [${release.version}]" with notes: rename "## [Unreleased]" to "## [${release.version}] - YYYY-MM-DD" and tag again`)
  console.log(notes)
}

function fail(message) {
  console.error(`release: ${message}`)
  process.exitCode = 1
}

if (import.meta.url === `file://${process.argv[1]}`) main(process.argv.slice(2))
