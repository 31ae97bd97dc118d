/**
 * The board in a real browser (Debian's chromium through playwright-core), from a real state branch written by the
 * CLI (tests/board/scenario.ts). One browser for the file. Screenshots of the main views go to
 * $CONVERGE_SCREENSHOTS when it is set (CI keeps them), else to a temporary folder.
 */
import { readFileSync } from 'node:fs'
import { mkdir, mkdtemp, rm } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { converge } from '../cli/support.js'
import { CHROMIUM, HAVE_CHROMIUM, launchBrowser, type Browser } from './browser.js'
import { ANSI_FAILURE, boardScenario, CLAIMED, HOSTILE_TITLE, type Scenario } from './scenario.js'

if (!HAVE_CHROMIUM) console.log(`board browser tests skipped: no chromium at ${CHROMIUM} (apt-get install chromium, or set CONVERGE_CHROMIUM)`)

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')

describe.skipIf(!HAVE_CHROMIUM)('the board in chromium', () => {
  let scenario: Scenario
  let browser: Browser
  let out: string
  let pageUrl: string
  let shots: string

  beforeAll(async () => {
    ;[scenario, browser] = await Promise.all([boardScenario(), launchBrowser()])
    out = join(scenario.dir, 'board')
    const made = await converge(['board', '--repo', scenario.repo, '--out', out])
    expect(made.code, made.err).toBe(0)
    pageUrl = pathToFileURL(join(out, 'index.html')).href
    shots = process.env.CONVERGE_SCREENSHOTS ?? (await mkdtemp(join(tmpdir(), 'converge-board-shots-')))
    await mkdir(shots, { recursive: true })
  }, 120_000)

  afterAll(async () => {
    await browser?.close()
    await scenario?.cleanup()
    if (!process.env.CONVERGE_SCREENSHOTS && shots) await rm(shots, { recursive: true, force: true })
  })

  /** A page on the board that records console errors, requests and dialogs. */
  async function open(): Promise<{ page: Page; errors: string[]; requests: string[]; dialogs: string[] }> {
    const page = await browser.context.newPage()
    const errors: string[] = []
    const requests: string[] = []
    const dialogs: string[] = []
    page.on('console', (message) => { if (message.type() === 'error') errors.push(message.text()) })
    page.on('pageerror', (error) => errors.push(error.message))
    page.on('request', (request) => requests.push(request.url()))
    page.on('dialog', (dialog) => { dialogs.push(dialog.message()); void dialog.dismiss() })
    await page.goto(pageUrl)
    return { page, errors, requests, dialogs }
  }

  async function screenshot(page: Page, name: string, fullPage: boolean): Promise<void> {
    const path = join(shots, `${name}.png`)
    await page.screenshot({ path, fullPage })
    console.log(`board screenshot: ${path}`)
  }

  async function seriousViolations(page: Page): Promise<string[]> {
    await page.evaluate(AXE)
    const result = await page.evaluate('axe.run()') as { violations: Array<{ id: string; impact: string; help: string; nodes: unknown[] }> }
    return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id} (${v.impact}): ${v.help}, ${v.nodes.length} nodes`)
  }

  it('lists every issue and the queue, with no console error and no request leaving the page', async () => {
    const { page, errors, requests } = await open()
    const numbers = await page.$$eval('#issue-table tbody tr td:first-child', (cells) => cells.map((c) => Number(c.textContent)))
    expect(numbers).toEqual([...scenario.titles.keys()].sort((a, b) => a - b))
    for (const [n, title] of scenario.titles) expect(await page.textContent(`#issue-table a[href="#issue-${n}"]`)).toBe(title)
    const queue = await page.textContent('#queue')
    expect(queue).toContain('blocked by #2 (failed)')
    expect(queue).toContain('file conflict: after S-1: both change shared.txt')
    expect(await page.textContent('#totals')).toContain('$0.0250')
    await screenshot(page, 'board-main', true)
    expect(errors).toEqual([])
    expect(requests).toEqual([pageUrl])
    // An issue's page is a file of the board's own folder, loaded when it is opened, and nothing else.
    await page.click('#issue-table a[href="#issue-1"]')
    await page.waitForSelector('#detail h2')
    expect(requests).toEqual([pageUrl, new URL('issues/1.js', pageUrl).href])
    await page.close()
  })

  it('keeps a hostile title as text: no element made of it, no dialog', async () => {
    const { page, dialogs, errors } = await open()
    expect(await page.$$eval('img', (images) => images.length)).toBe(0)
    expect(await page.textContent('#issue-table a[href="#issue-1"]')).toBe(HOSTILE_TITLE)
    await page.click('#issue-table a[href="#issue-1"]')
    expect(await page.textContent('#detail h2')).toBe(`ISS-1: ${HOSTILE_TITLE}`)
    expect(await page.$$eval('img', (images) => images.length)).toBe(0)
    expect(dialogs).toEqual([])
    expect(errors).toEqual([])
    await page.close()
  })

  it("shows an issue's task graph, checks and evidence after a click, and its timeline", async () => {
    const { page, errors, requests } = await open()
    await page.click('#issue-table a[href="#issue-1"]')
    await page.waitForSelector('#detail svg.graph')
    expect(await page.$$eval('#detail svg.graph .node', (nodes) => nodes.map((n) => n.getAttribute('href')))).toEqual(['#issue-1-T1', '#issue-1-T2'])
    expect(await page.$$eval('#detail svg.graph path.edge', (edges) => edges.length)).toBe(1)
    const t1 = await page.textContent('#task-1-T1')
    expect(t1).toContain('proven')
    expect(t1).toContain('Before the change')
    expect(t1).toContain('grep: hello.txt: No such file or directory')
    expect(t1).toContain('Claude Code · $0.0125 · 1,540 tokens')
    expect(await page.textContent('#task-1-T2 .evidence')).toContain('changed nothing')
    expect(await page.textContent('#detail .timeline')).toContain('approved SOL-ISS-1-1')
    await screenshot(page, 'board-issue', false)
    await page.click('#detail svg.graph a[href="#issue-1-T2"]')
    expect(await page.evaluate('document.activeElement?.id')).toBe('task-1-T2')
    // A failed issue: its failing command, exit code and output.
    await page.goto(`${pageUrl}#issue-2`)
    await page.waitForSelector('#detail svg.graph')
    expect(await page.textContent('#detail')).toContain('failed')
    expect(await page.$eval('#detail svg.graph .node', (n) => n.getAttribute('class'))).toContain('st-failed')
    expect(errors).toEqual([])
    expect(requests.every((url) => url.startsWith(new URL('.', pageUrl).href))).toBe(true)
    await page.close()
  })

  it('filters by search, status, label and evidence from the keyboard', async () => {
    const { page } = await open()
    const shown = () => page.$$eval('#issue-table tbody tr:not([hidden]) td:first-child', (cells) => cells.map((c) => Number(c.textContent)))
    await page.keyboard.press('/')
    expect(await page.evaluate('document.activeElement?.id')).toBe('f-search')
    await page.keyboard.type('broken')
    expect(await shown()).toEqual([2])
    expect(await page.textContent('#shown')).toBe('1 of 5 issues shown')
    await page.keyboard.press('Control+A')
    await page.keyboard.press('Backspace')
    await page.keyboard.press('Tab')
    expect(await page.evaluate('document.activeElement?.id')).toBe('f-status')
    await page.keyboard.type('queued')
    expect(await shown()).toEqual([3, 5])
    await page.selectOption('#f-status', '')
    await page.focus('#f-label')
    await page.keyboard.type('bug')
    expect(await shown()).toEqual([1, 2])
    await page.keyboard.press('Tab')
    await page.keyboard.type('proven')
    expect(await shown()).toEqual([1])
    await page.close()
  })

  it('opens an issue with Enter and goes back with Escape', async () => {
    const { page } = await open()
    await page.focus('#issue-table a[href="#issue-3"]')
    await page.keyboard.press('Enter')
    await page.waitForSelector('#detail h2')
    expect(await page.evaluate('document.activeElement?.tagName')).toBe('H2')
    expect(await page.textContent('#detail')).toContain('blocked by #2 (failed)')
    await page.keyboard.press('Escape')
    await page.waitForSelector('#detail', { state: 'hidden' })
    await page.close()
  })

  it('has no serious or critical accessibility violation (axe-core), on the list and on an issue', async () => {
    const { page } = await open()
    expect(await seriousViolations(page)).toEqual([])
    await page.click('#issue-table a[href="#issue-1"]')
    await page.waitForSelector('#detail h2')
    expect(await seriousViolations(page)).toEqual([])
    await page.close()
  })

  it('shows command output without its ANSI codes', async () => {
    const { page, errors } = await open()
    await page.goto(`${pageUrl}#issue-2`)
    await page.waitForSelector('#detail h2')
    const shown = await page.evaluate(`(() => {
      for (const d of document.querySelectorAll('#detail details')) d.open = true
      return document.getElementById('detail').innerText
    })()`) as string
    expect(ANSI_FAILURE).toContain('\u001b[31m')
    expect(shown).toContain('Error: No test files found, exiting with code 1')
    expect(shown).not.toMatch(/\u001b|\[\d+m/)
    expect(errors).toEqual([])
    await page.close()
  })

  it("reads a criterion only the agent's report claims as its claim, never as a pass, with its inline code as code", async () => {
    const { page } = await open()
    await page.goto(`${pageUrl}#issue-1-T2`)
    await page.waitForSelector('#detail h2')
    const row = page.locator('#task-1-T2 tr', { hasText: 'The greeting is' })
    expect(await row.locator('td').nth(2).textContent()).toBe('claimed by the agent')
    expect(await row.locator('.s-pass').count()).toBe(0)
    expect(await row.locator('td code').first().textContent()).toBe(CLAIMED.match(/`(.*)`/)![1])
    await page.close()
  })

  it('gives a task that changed nothing the badge its evidence sentence says', async () => {
    const { page } = await open()
    await page.goto(`${pageUrl}#issue-1-T2`)
    await page.waitForSelector('#detail h2')
    expect(await page.textContent('#task-1-T2 h3 .badge')).toBe('changed nothing')
    expect(await page.textContent('#task-1-T2 .evidence .badge')).toBe('changed nothing')
    expect(await page.textContent('#task-1-T2 .evidence')).toContain('T2 changed nothing: its check already passed before the change')
    expect(await page.textContent('#detail svg.graph a[href="#issue-1-T2"] text.id')).toBe('T2 · changed nothing')
    expect(await page.textContent('#task-1-T1 h3 .badge')).toBe('converged')
    expect(await page.textContent('#task-1-T1 li.check-file')).toContain('hello.txt')
    await page.close()
  })

  it('shows each file a task committed with its lines added and removed, as the execution recorded them', async () => {
    const { page } = await open()
    await page.goto(`${pageUrl}#issue-1-T1`)
    await page.waitForSelector('#detail h2')
    // The agent wrote "hello" into a new hello.txt: its commit added one line and removed none.
    const file = page.locator('#task-1-T1 ul.files li', { hasText: 'hello.txt' })
    expect(await file.textContent()).toMatch(/^hello\.txt \+1 −0 \(/)
    expect(await file.locator('.added').count()).toBe(1)
    await page.close()
  })

  for (const width of [360, 768, 1400]) {
    it(`covers what is behind the issue panel at ${width} px, leaving no strip`, async () => {
      const { page } = await open()
      await page.setViewportSize({ width, height: 800 })
      await page.click('#issue-table a[href="#issue-1"]')
      await page.waitForSelector('#detail h2')
      const uncovered = await page.evaluate(`(() => {
        const detail = document.getElementById('detail')
        const points = []
        for (const x of [1, innerWidth / 2, innerWidth - 2]) for (const y of [1, 20, 40, innerHeight / 2, innerHeight - 30, innerHeight - 2]) points.push([x, y])
        return points.filter(([x, y]) => !detail.contains(document.elementFromPoint(x, y)))
      })()`)
      expect(uncovered).toEqual([])
      await page.close()
    })
  }
})
