/**
 * The board of 1,000 issues (bench/board.ts's synthetic state: 500 planned with 20 tasks each, 250 executed) in
 * chromium: the list page stays small, and an issue followed by a link opens with its graph, measured in the browser
 * from navigation. The aim is 1 s (`npm run bench -- only=board` prints the figure); the assertion here is a
 * generous 5 s so a busy shared machine does not fail it, while a page that loads every issue up front (about 6 s
 * here before) still does.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { syntheticStore } from '../../bench/board.js'
import { makeBoard, writeBoard } from '../../src/board/make.js'
import { HAVE_CHROMIUM, issueShownAt, launchBrowser, type Browser } from './browser.js'

describe.skipIf(!HAVE_CHROMIUM)('the board of 1,000 issues in chromium', () => {
  let dir: string
  let url: string
  let browser: Browser
  let pageBytes: number

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'converge-board-1000-'))
    const board = await makeBoard(syntheticStore(1_000), '2026-11-20T10:00:00.000Z')
    pageBytes = Buffer.byteLength(board.html)
    url = pathToFileURL((await writeBoard(dir, board)).page).href
    browser = await launchBrowser()
  }, 300_000)

  afterAll(async () => {
    await browser?.close()
    if (dir) await rm(dir, { recursive: true, force: true })
  })

  it('is a page of at most 5 MB whose issue opens from a link, with its graph, within 5 s of navigation (aim: 1 s)', async () => {
    expect(pageBytes).toBeLessThan(5_000_000)
    const errors: string[] = []
    browser.context.on('weberror', (error) => errors.push(error.error().message))
    const { page, ms: shownAt } = await issueShownAt(browser.context, `${url}#issue-137`, '#detail svg.graph')
    console.log(`board of 1,000 issues: ${(pageBytes / 1e6).toFixed(2)} MB page, issue 137 shown ${shownAt.toFixed(0)} ms after navigation`)
    expect(await page.textContent('#detail h2')).toBe('ISS-137: Issue 137: make module 137 faster')
    expect(await page.$$eval('#detail svg.graph .node', (nodes) => nodes.length)).toBe(20)
    expect(shownAt).toBeLessThan(5_000)
    // The filters work on the whole list.
    await page.goto(url)
    await page.fill('#f-search', 'module 999 ')
    expect(await page.textContent('#shown')).toBe('1 of 1000 issues shown')
    expect(errors).toEqual([])
    await page.close()
  })
})
