// The browser tier's scaffolding: Debian's chromium driven by playwright-core (no browser download).
// CHROMIUM_PATH names another binary; without one the tier skips and says so.
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';

const CANDIDATES = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter(Boolean) as string[];
export const CHROMIUM = CANDIDATES.find((p) => existsSync(p));
export const NO_BROWSER = CHROMIUM ? false : 'no chromium here (apt-get install chromium, or set CHROMIUM_PATH): the browser tier skips';

/** Screenshots of the browser tier (gitignored; a few are copied to docs/console/ by hand). */
export const ARTIFACTS = join(process.cwd(), 'test-artifacts', 'browser');

export async function launch(): Promise<Browser> {
  mkdirSync(ARTIFACTS, { recursive: true });
  return chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-dev-shm-usage'] });
}

/** A page that records uncaught exceptions, console errors and dialogs (none may happen). */
export async function watchedPage(browser: Browser, viewport = { width: 1280, height: 800 }): Promise<{ page: Page; problems: string[] }> {
  const page = await browser.newPage({ viewport });
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(`uncaught: ${e.message}`));
  page.on('dialog', (d) => {
    problems.push(`dialog: ${d.message()}`);
    void d.dismiss();
  });
  return { page, problems };
}
