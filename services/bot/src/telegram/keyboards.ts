import {
  TOP_UP_PACKAGES,
  type AiModel,
  type ChatMode,
  type Money,
  type PaymentKind,
  type PublicTariff,
} from '@gpt/contracts';
import { InlineKeyboard } from 'grammy';
import { callbacks } from './callbacks';
import { buttons } from './texts';

/** Top-up amounts offered by /buy, in whole roubles (billing makes Stars invoices only for these). */
export const TOP_UP_AMOUNTS = TOP_UP_PACKAGES.map((amount) => Number.parseInt(amount, 10));

export const keyboards = {
  welcome: (siteUrl: string, voiceReplies: boolean) =>
    new InlineKeyboard()
      .text(buttons.model, callbacks.menu('models'))
      .text(buttons.modes, callbacks.menu('modes'))
      .row()
      .text(buttons.balance, callbacks.menu('balance'))
      .text(buttons.topUp, callbacks.menu('buy'))
      .row()
      .text(buttons.image, callbacks.menu('imageUsage'))
      .text(buttons.voiceReplies(voiceReplies), callbacks.voiceReplies(!voiceReplies))
      .row()
      .url(buttons.site, siteUrl),
  settings: (voiceReplies: boolean) =>
    new InlineKeyboard().text(buttons.voiceReplies(voiceReplies), callbacks.voiceReplies(!voiceReplies)),
  modes: (modes: ChatMode[], current: ChatMode | undefined) =>
    InlineKeyboard.from(
      modes.map((mode) => [
        InlineKeyboard.text(buttons.mode(mode, mode.id === current?.id), callbacks.chooseMode(mode.id)),
      ]),
    ),
  instructions: () =>
    new InlineKeyboard()
      .text(buttons.editInstructions, callbacks.menu('editInstructions'))
      .text(buttons.deleteInstructions, callbacks.menu('deleteInstructions')),
  topUp: () => new InlineKeyboard().text(buttons.topUp, callbacks.menu('buy')),
  balance: (linked: boolean) => {
    const keyboard = new InlineKeyboard().text(buttons.topUp, callbacks.menu('buy'));
    return linked ? keyboard : keyboard.text(buttons.link, callbacks.menu('link'));
  },
  models: (models: AiModel[], current: string) =>
    InlineKeyboard.from(
      models.map((model) => [
        InlineKeyboard.text(`${model.model === current ? '✅ ' : ''}${model.model}`, callbacks.chooseModel(model.id)),
      ]),
    ),
  /** Every package and paid tariff; a press asks how to pay for it (`payWays`). */
  buy: (tariffs: PublicTariff[]) => {
    const keyboard = new InlineKeyboard();
    TOP_UP_AMOUNTS.forEach((amount, index) => {
      if (index > 0 && index % 2 === 0) keyboard.row();
      keyboard.text(buttons.topUpAmount(amount), callbacks.chooseTopUp(amount));
    });
    for (const tariff of tariffs.filter((option) => Number(option.monthly_price) > 0)) {
      keyboard.row().text(buttons.tariff(tariff), callbacks.chooseTariff(tariff.id));
    }
    return keyboard;
  },
  /** The two ways to pay for one package or tariff: Telegram Stars and a card. */
  payWays: (target: { roubles: number } | { tariffId: number }) =>
    'roubles' in target
      ? new InlineKeyboard()
          .text(buttons.stars, callbacks.starsTopUp(target.roubles))
          .text(buttons.card, callbacks.topUp(target.roubles))
      : new InlineKeyboard()
          .text(buttons.stars, callbacks.starsTariff(target.tariffId))
          .text(buttons.card, callbacks.buyTariff(target.tariffId)),
  /** The same payment again: the tariff, or a top-up of the same whole roubles; otherwise the /buy choice. */
  retryPayment: (payment: { kind: PaymentKind; tariff_id: number | null; amount: Money }) => {
    const roubles = /^(\d+)\.00$/.exec(payment.amount)?.[1];
    let data = callbacks.menu('buy');
    if (payment.kind === 'tariff' && payment.tariff_id !== null) data = callbacks.buyTariff(payment.tariff_id);
    else if (payment.kind === 'topup' && roubles) data = callbacks.topUp(Number(roubles));
    return new InlineKeyboard().text(buttons.retryPayment, data);
  },
  url: (label: string, url: string) => new InlineKeyboard().url(label, url),
  /** Under the request for a receipt e-mail: give up the payment instead. */
  cancelEmail: () => new InlineKeyboard().text(buttons.cancel, callbacks.menu('cancelEmail')),
};
