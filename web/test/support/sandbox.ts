import type { Page } from 'playwright-core';

/** A new user of the site's Telegram sandbox, greeted by the bot: the bot's messages and the message box. */
export async function newSandboxChat(page: Page, siteUrl: string) {
  await page.goto(`${siteUrl}/telegram-sandbox`);
  await page.getByRole('button', { name: 'Новый пользователь' }).click();
  await page.getByRole('button', { name: 'Начать', exact: true }).click();
  const bot = page.locator('[data-from="bot"]');
  await bot.filter({ hasText: 'Здравствуйте' }).waitFor();
  return { bot, input: page.getByLabel('Сообщение боту') };
}
