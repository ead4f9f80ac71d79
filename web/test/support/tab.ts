import type { Browser, BrowserContext, BrowserContextOptions, Page, ViewportSize } from 'playwright-core';

/**
 * One browser tab that a test file's tests take turns in, handed out by `open` as a new one would be for all
 * the app keeps: no cookies, nothing in the site's localStorage (where the session lives), no routes or event
 * listeners left by the test before, the viewport asked for. A context of its own for every test starts a
 * renderer and loads the app cold each time, about twice the browser's CPU of a load in a tab already open
 * (docs/architecture.md «Tests»). What a tab cannot undo (a fake clock, an init script, two pages at once)
 * needs a context of its own: `browser.newContext()`.
 */
export class Tab {
  private context?: BrowserContext;
  private page?: Page;

  /**
   * `siteUrl` gives the address of the site whose storage is cleared between uses; `permissions` are granted
   * for every use (one test's grants would outlive it).
   */
  constructor(
    private readonly browser: () => Browser,
    private readonly siteUrl: () => string,
    private readonly options: Pick<BrowserContextOptions, 'permissions'> = {},
  ) {}

  /** The tab at `viewport`, cleared of what its last use left. */
  async open(viewport: ViewportSize = { width: 1280, height: 900 }): Promise<Page> {
    this.context ??= await this.browser().newContext({ viewport, ...this.options });
    if (this.page && !this.page.isClosed()) await this.clear(this.context, this.page);
    else this.page = await this.context.newPage();
    await this.page.setViewportSize(viewport);
    return this.page;
  }

  /**
   * The page leaves the app for a plain document of the same site (which ends the app's requests and timers
   * and keeps the renderer), then the site's storage, cookies, routes and listeners go.
   */
  private async clear(context: BrowserContext, page: Page): Promise<void> {
    page.removeAllListeners();
    await page.unrouteAll({ behavior: 'ignoreErrors' });
    await page.goto(`${this.siteUrl()}/robots.txt`);
    await page.evaluate(() => localStorage.clear());
    await context.clearCookies();
  }
}
