/** Debian's chromium, driven by playwright-core (no browser download): one launch per test file. */
import { existsSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium, type BrowserContext, type Page } from 'playwright-core'

export const CHROMIUM = process.env.CONVERGE_CHROMIUM ?? '/usr/bin/chromium'
export const HAVE_CHROMIUM = existsSync(CHROMIUM)

const FLAGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
]

export interface Browser {
  context: BrowserContext
  close(): Promise<void>
}

/** A persistent context on a fresh profile directory, removed on close. */
export async function launchBrowser(): Promise<Browser> {
  const profile = await mkdtemp(join(tmpdir(), 'converge-chromium-'))
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM, headless: true, args: FLAGS, viewport: { width: 1280, height: 900 },
  })
  return {
    context,
    close: async () => {
      await context.close()
      await rm(profile, { recursive: true, force: true })
    },
  }
}

/**
 * Opens `url` (a link to an issue) in a new page and gives the time from navigation to the moment the page had the
 * issue's heading, taken by the page itself: the harness's own round trips (a wait, then asking the page for the
 * time) add a second on a busy machine and are not the reader's wait.
 */
export async function issueShownAt(context: BrowserContext, url: string, selector = '#detail h2'): Promise<{ page: Page; ms: number }> {
  const page = await context.newPage()
  await page.addInitScript(`new MutationObserver((_, observer) => {
    if (document.querySelector(${JSON.stringify(selector)})) { window.__issueShownAt = performance.now(); observer.disconnect() }
  }).observe(document, { childList: true, subtree: true })`)
  await page.goto(url, { waitUntil: 'commit', timeout: 120_000 })
  await page.waitForSelector(selector, { timeout: 120_000 })
  return { page, ms: await page.evaluate('window.__issueShownAt') as number }
}
