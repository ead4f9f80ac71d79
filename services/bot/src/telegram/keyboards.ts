import type { AiModel, Money, PaymentKind, PublicTariff } from '@gpt/contracts';
import { InlineKeyboard } from 'grammy';
import { buttons } from './texts';

/** Top-up amounts offered by /buy, in roubles. */
export const TOP_UP_AMOUNTS = [100, 300, 500, 1000] as const;

export const keyboards = {
  welcome: (siteUrl: string) =>
    new InlineKeyboard()
      .text(buttons.model, 'menu:model')
      .text(buttons.balance, 'menu:balance')
      .row()
      .text(buttons.topUp, 'menu:buy')
      .text(buttons.image, 'menu:image')
      .row()
      .url(buttons.site, siteUrl),
  topUp: () => new InlineKeyboard().text(buttons.topUp, 'menu:buy'),
  balance: (linked: boolean) => {
    const keyboard = new InlineKeyboard().text(buttons.topUp, 'menu:buy');
    return linked ? keyboard : keyboard.text(buttons.link, 'menu:link');
  },
  models: (models: AiModel[], current: string) =>
    InlineKeyboard.from(
      models.map((model) => [
        InlineKeyboard.text(`${model.model === current ? '✅ ' : ''}${model.model}`, `model:${model.id}`),
      ]),
    ),
  buy: (tariffs: PublicTariff[]) => {
    const keyboard = new InlineKeyboard();
    for (const amount of TOP_UP_AMOUNTS) keyboard.text(buttons.topUpAmount(amount), `buy:topup:${amount}`);
    for (const tariff of tariffs.filter((option) => Number(option.monthly_price) > 0)) {
      keyboard.row().text(buttons.tariff(tariff), `buy:tariff:${tariff.id}`);
    }
    return keyboard;
  },
  /** The same payment again: the tariff, or a top-up of the same whole roubles; otherwise the /buy choice. */
  retryPayment: (payment: { kind: PaymentKind; tariff_id: number | null; amount: Money }) => {
    const roubles = /^(\d+)\.00$/.exec(payment.amount)?.[1];
    let data = 'menu:buy';
    if (payment.kind === 'tariff' && payment.tariff_id !== null) data = `buy:tariff:${payment.tariff_id}`;
    else if (payment.kind === 'topup' && roubles) data = `buy:topup:${roubles}`;
    return new InlineKeyboard().text(buttons.retryPayment, data);
  },
  url: (label: string, url: string) => new InlineKeyboard().url(label, url),
};
