import {
  TOP_UP_PACKAGES,
  type AiModel,
  type BroadcastButton,
  type ChatMode,
  type Money,
  type PaymentKind,
  type PublicTariff,
  type UserSubscription,
} from '@gpt/contracts';
import { InlineKeyboard } from 'grammy';
import { callbackData } from './callbacks';
import { buttons, subscriptionButtons } from './texts';

/** Top-up amounts offered by /buy, in whole roubles (billing makes Stars invoices only for these). */
export const TOP_UP_AMOUNTS = TOP_UP_PACKAGES.map((amount) => Number.parseInt(amount, 10));

export const keyboards = {
  welcome: (siteUrl: string, voiceReplies: boolean) =>
    new InlineKeyboard()
      .text(buttons.model, callbackData('models'))
      .text(buttons.modes, callbackData('modes'))
      .row()
      .text(buttons.balance, callbackData('balance'))
      .text(buttons.topUp, callbackData('buy'))
      .row()
      .text(buttons.image, callbackData('imageUsage'))
      .text(buttons.voiceReplies(voiceReplies), callbackData('voiceReplies', { on: !voiceReplies }))
      .row()
      .url(buttons.site, siteUrl)
      .text(buttons.openInBrowser, callbackData('openWeb')),
  settings: (voiceReplies: boolean, news: boolean) =>
    new InlineKeyboard()
      .text(buttons.voiceReplies(voiceReplies), callbackData('voiceReplies', { on: !voiceReplies }))
      .row()
      .text(buttons.news(news), callbackData('news', { on: !news })),
  /** A broadcast's button: its link, or the bot's «Пополнить» or «Открыть чат». */
  broadcast: (button: BroadcastButton | null) => {
    if (!button) return undefined;
    if (button.kind === 'url') return new InlineKeyboard().url(button.text, button.url);
    return button.kind === 'top_up'
      ? new InlineKeyboard().text(buttons.topUp, callbackData('buy'))
      : new InlineKeyboard().text(buttons.openChat, callbackData('openChat'));
  },
  modes: (modes: ChatMode[], current: ChatMode | undefined) =>
    InlineKeyboard.from(
      modes.map((mode) => [
        InlineKeyboard.text(buttons.mode(mode, mode.id === current?.id), callbackData('chooseMode', { id: mode.id })),
      ]),
    ),
  instructions: () =>
    new InlineKeyboard()
      .text(buttons.editInstructions, callbackData('editInstructions'))
      .text(buttons.deleteInstructions, callbackData('deleteInstructions')),
  topUp: () => new InlineKeyboard().text(buttons.topUp, callbackData('buy')),
  balance: (linked: boolean) => {
    const keyboard = new InlineKeyboard().text(buttons.topUp, callbackData('buy'));
    return linked ? keyboard : keyboard.text(buttons.link, callbackData('link'));
  },
  models: (models: AiModel[], current: string) =>
    InlineKeyboard.from(
      models.map((model) => [
        InlineKeyboard.text(
          `${model.model === current ? '✅ ' : ''}${model.model}`,
          callbackData('chooseModel', { id: model.id }),
        ),
      ]),
    ),
  /** Every package and paid tariff; a press asks how to pay for it (`payWays`). */
  buy: (tariffs: PublicTariff[]) => {
    const keyboard = new InlineKeyboard();
    TOP_UP_AMOUNTS.forEach((amount, index) => {
      if (index > 0 && index % 2 === 0) keyboard.row();
      keyboard.text(buttons.topUpAmount(amount), callbackData('chooseTopUp', { roubles: amount }));
    });
    for (const tariff of tariffs.filter((option) => Number(option.monthly_price) > 0)) {
      keyboard.row().text(buttons.tariff(tariff), callbackData('chooseTariff', { id: tariff.id }));
    }
    return keyboard;
  },
  /** The ways to pay for one package or tariff: Telegram Stars and a card (a tariff also by a card that renews it). */
  payWays: (target: { roubles: number } | { tariffId: number }) =>
    'roubles' in target
      ? new InlineKeyboard()
          .text(buttons.stars, callbackData('starsTopUp', { roubles: target.roubles }))
          .text(buttons.card, callbackData('topUp', { roubles: target.roubles }))
      : new InlineKeyboard()
          .text(buttons.stars, callbackData('starsTariff', { id: target.tariffId }))
          .text(buttons.card, callbackData('buyTariff', { id: target.tariffId }))
          .row()
          .text(subscriptionButtons.cardRenewing, callbackData('renewTariff', { id: target.tariffId })),
  /** The same payment again: the tariff, or a top-up of the same whole roubles; otherwise the /buy choice. */
  retryPayment: (payment: { kind: PaymentKind; tariff_id: number | null; amount: Money }) => {
    const roubles = /^(\d+)\.00$/.exec(payment.amount)?.[1];
    let data = callbackData('buy');
    if (payment.kind === 'tariff' && payment.tariff_id !== null)
      data = callbackData('buyTariff', { id: payment.tariff_id });
    else if (payment.kind === 'topup' && roubles) data = callbackData('topUp', { roubles: Number(roubles) });
    return new InlineKeyboard().text(buttons.retryPayment, data);
  },
  url: (label: string, url: string) => new InlineKeyboard().url(label, url),
  /** Under the request for a receipt e-mail: give up the payment instead. */
  cancelEmail: () => new InlineKeyboard().text(buttons.cancel, callbackData('cancelEmail')),
};

/** /subscription: cancel or resume each subscription; with none renewing, a Stars subscription of each paid tariff. */
export const subscriptionKeyboards = {
  manage: (subscriptions: UserSubscription[], paidTariffs: PublicTariff[]) => {
    const renewing = (subscription: UserSubscription) => ['active', 'past_due'].includes(subscription.status);
    const rows = subscriptions.flatMap((subscription) => {
      const stars = subscription.method === 'telegram_stars';
      if (renewing(subscription)) {
        const label = stars ? subscriptionButtons.cancelStars : subscriptionButtons.cancelCard;
        return [[InlineKeyboard.text(label, callbackData('cancelSubscription', { id: subscription.id }))]];
      }
      const resumable = stars && subscription.status === 'canceled' && new Date(subscription.paid_until) > new Date();
      const resume = callbackData('resumeSubscription', { id: subscription.id });
      return resumable ? [[InlineKeyboard.text(subscriptionButtons.resumeStars, resume)]] : [];
    });
    const offers = subscriptions.some(renewing)
      ? []
      : paidTariffs.map((tariff) => [
          InlineKeyboard.text(
            subscriptionButtons.subscribe(tariff.name),
            callbackData('starsSubscription', { id: tariff.id }),
          ),
        ]);
    return InlineKeyboard.from([...rows, ...offers]);
  },
  pay: (link: string) => new InlineKeyboard().url(subscriptionButtons.pay, link),
  /** Under the consent text: the one press that agrees to renewals and goes on to pay. */
  agree: (tariffId: number) =>
    new InlineKeyboard().text(subscriptionButtons.agree, callbackData('renewAgree', { id: tariffId })),
};
