// Browser tests: a real headless Chromium (the operating system's package: browser downloads fail on these machines)
// driven by playwright-core. One browser per test file; each `inBrowser` test gets a page, and a failing test leaves
// a screenshot of that page in .cache/test-results/screenshots/.
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { testIp } from './api';
import { BASE_URL } from './emulators';

// The one list of Chromium paths, shared with the bench and .ci/run.
const { findChromium, INSTALL_HINT } = require(path.join(__dirname, '..', '..', '..', 'scripts', 'lib', 'chromium.cjs')) as {
  findChromium: () => string | undefined;
  INSTALL_HINT: string;
};
export const SCREENSHOTS_DIR = path.join(__dirname, '..', '..', '..', '.cache', 'test-results', 'screenshots');

export function chromiumPath(): string {
  const found = findChromium();
  if (!found) throw new Error(`no Chromium found: ${INSTALL_HINT}`);
  return found;
}

/** The console's origin (Hosting: the same origin as the API). */
export const CONSOLE_URL = `${BASE_URL}/admin`;

/**
 * A browser for the file and a context (cookies, localStorage) shared by its tests unless one asks for a fresh one.
 * Requests carry their own client address, so the per-IP sign-in limits of this file are its own.
 */
export function withBrowser() {
  let browser: Browser | undefined;
  let shared: BrowserContext | undefined;
  const ip = testIp();
  const newContext = async () => browser!.newContext({ extraHTTPHeaders: { 'x-forwarded-for': ip }, locale: 'en-US', viewport: { width: 1280, height: 900 } });
  beforeAll(async () => {
    browser = await chromium.launch({ executablePath: chromiumPath(), headless: true });
    shared = await newContext();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });

  /** A test with a page (of the shared context, or a fresh one); on failure, a screenshot of the page. */
  function inBrowser(name: string, body: (page: Page) => Promise<void>, opts: { fresh?: boolean; timeoutMs?: number } = {}) {
    it(
      name,
      async () => {
        const context = opts.fresh ? await newContext() : shared!;
        const page = await context.newPage();
        const errors: string[] = [];
        page.on('pageerror', (error) => errors.push(error.message));
        try {
          await body(page);
          expect(errors).toEqual([]);
        } catch (error) {
          fs.mkdirSync(SCREENSHOTS_DIR, { recursive: true });
          const file = path.join(SCREENSHOTS_DIR, `${name.replace(/[^\w-]+/g, '-').slice(0, 100)}.png`);
          await page.screenshot({ path: file, fullPage: true }).catch(() => undefined);
          throw Object.assign(error as Error, { message: `${(error as Error).message}\n(screenshot: ${file}; page errors: ${errors.join(' | ') || 'none'})` });
        } finally {
          await page.close();
          if (opts.fresh) await context.close();
        }
      },
      opts.timeoutMs ?? 90_000,
    );
  }
  return { inBrowser };
}
