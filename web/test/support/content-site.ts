import type { RunningGateway } from '@gpt/gateway';
import type { Browser } from 'playwright-core';
import { type ContentClient, contentClient, startContent } from '../../../services/content/test/support';
import { launchChromium } from './browser';
import { startSite } from './site';

export interface ContentSite {
  /** Admin calls straight to the content service (seeding, checking what a screen saved). */
  api: ContentClient;
  site: RunningGateway;
  browser: Browser;
  close(): Promise<void>;
}

/** The content service behind the built site and the gateway, with Chromium: what the article screens' tests share. */
export async function startContentSite(): Promise<ContentSite> {
  const content = await startContent();
  const [site, browser] = await Promise.all([startSite({ CONTENT_URL: content.url }), launchChromium()]);
  return {
    api: contentClient(content),
    site,
    browser,
    async close() {
      await browser.close();
      await site.close();
      await content.stop();
    },
  };
}
