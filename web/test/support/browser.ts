import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import axe from 'axe-core';
import { chromium, type Browser, type Page } from 'playwright-core';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const screenshotDir = path.join(root, 'test-results', 'screenshots');

/**
 * Debian's Chromium headless shell (package chromium-headless-shell: the same Blink and V8 as its chromium
 * without the desktop browser around them, what Playwright's own headless runs use), with the flags this
 * closed network needs. CHROMIUM_PATH=/usr/bin/chromium runs the tests in the whole browser instead.
 */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium-headless-shell',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/**
 * Whether `screenshot` writes its pictures: only when asked (`SCREENSHOTS=1`, see docs/architecture.md,
 * Tests). They are for people to look at, and no assertion reads them: `screens.e2e` alone took 95 busy
 * CPU-seconds with its full-page PNGs and 79 without.
 */
export const takingScreenshots = process.env.SCREENSHOTS === '1';

/**
 * Saves a full-page screenshot under test-results/screenshots for people to look at, when screenshots are
 * asked for (`takingScreenshots`). Taken from the top: a page scrolled down would show its sticky header in
 * the middle of the picture.
 */
export async function screenshot(page: Page, name: string): Promise<void> {
  if (!takingScreenshots) return;
  await mkdir(screenshotDir, { recursive: true });
  await page.evaluate(() => window.scrollTo({ top: 0, behavior: 'instant' }));
  await page.screenshot({ path: path.join(screenshotDir, `${name}.png`), fullPage: true, animations: 'disabled' });
}

/** The «gpt-…» model names inside an element that are broken over two lines (none should be). */
export function brokenModelNames(page: Page, selector: string): Promise<string[]> {
  return page.locator(selector).evaluate((element) => {
    const found: string[] = [];
    const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (const match of (node.textContent ?? '').matchAll(/gpt-[\w.-]+/g)) {
        const range = document.createRange();
        range.setStart(node, match.index);
        range.setEnd(node, match.index + match[0].length);
        const tops = new Set([...range.getClientRects()].map((rect) => Math.round(rect.top)));
        if (tops.size > 1) found.push(match[0]);
      }
    }
    return found;
  });
}

/**
 * The page's serious and critical axe-core violations, each as «rule: selectors». axe-core is put into the
 * page once per document and run there on the whole page; only violations are gathered whole (`resultTypes`):
 * the passes and inapplicable rules, which nothing reads, cost a seventh of the time. (@axe-core/playwright
 * evaluated axe's 500 kB source twice per check, 40 % of a check's time; its default mode also opened a blank
 * page per check to merge frames' results — the app has no frames of its own to audit.)
 */
export async function seriousAxeViolations(page: Page): Promise<string[]> {
  // A dialog fading in is read as it ends up, not half transparent (endless ones, like spinners, never end).
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => animation.effect?.getComputedTiming().endTime !== Infinity)
        .map((animation) => animation.finished.catch(() => undefined)),
    ),
  );
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axe.source);
  const { violations } = await page.evaluate(
    (options) => (window as unknown as { axe: typeof axe }).axe.run(document, options),
    { resultTypes: ['violations'] } satisfies axe.RunOptions,
  );
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
}
