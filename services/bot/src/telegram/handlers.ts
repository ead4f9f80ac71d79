import {
  BotPaymentEmailRequest,
  type CreatePaymentResponse,
  typicalMessageCost,
  typicalMessagesFor,
} from '@gpt/contracts';
import { safeFileName } from '@gpt/kit';
import { Composer, InlineKeyboard, InputFile, type Context } from 'grammy';
import { ServiceCallError } from '../clients/services';
import type { BotDeps } from '../deps';
import { chatsRepository, type Chat } from '../data/chats.repository';
import { ask, type AskInput } from '../domain/ask';
import { chatModels, creditsFor, modelFor, type Catalog } from '../domain/catalog';
import { draw } from '../domain/draw';
import { DocumentRefusal } from '../documents/refusals';
import type { ContentPart } from '../engine/provider';
import { answerMessage } from './answer-message';
import { keyboards } from './keyboards';
import { sendWithButtons } from './send';
import { buttons, texts } from './texts';

/** The update's Telegram user as the bot keeps them, set by the first middleware. */
export interface BotContext extends Context {
  account: Chat;
}

/** A /start payload becomes the UTM source: Telegram allows A-Z, a-z, 0-9, _ and -, up to 64 characters. */
const START_PAYLOAD = /^[\w-]{1,64}$/;
/** The payload of the site's «Связать» deep link (t.me/<bot>?start=link): /start answers as /link does. */
const LINK_START_PAYLOAD = 'link';

export function botHandlers(deps: BotDeps): Composer<BotContext> {
  const { api, config, logger } = deps;
  const chats = chatsRepository(deps.db);
  const bot = new Composer<BotContext>();
  const privateChats = bot.chatType('private');

  const reply = (ctx: BotContext, html: string, keyboard?: InlineKeyboard) =>
    sendWithButtons(ctx.api, ctx.account.chatId, html, keyboard);

  /** Registers the Telegram user through auth (UTM source on first contact) and keeps their chat. */
  async function register(ctx: Context, utmSource: string | null): Promise<Chat> {
    const from = ctx.from!;
    const user = await api.upsertUser({
      telegram_id: from.id,
      username: from.username ?? null,
      first_name: from.first_name,
      last_name: from.last_name ?? null,
      utm_source: utmSource,
      language_code: from.language_code ?? null,
    });
    return chats.upsert({ telegramId: from.id, userId: user.id, chatId: ctx.chat!.id, webLinked: user.web_linked });
  }

  privateChats.use(async (ctx, next) => {
    if (!ctx.from) return;
    const known = await chats.find(ctx.from.id);
    const isStart = ctx.message?.text?.startsWith('/start') ?? false;
    if (known && !isStart) {
      ctx.account = known;
    } else {
      const payload = isStart ? (ctx.message?.text ?? '').split(/\s+/)[1] : undefined;
      const utmSource = payload && payload !== LINK_START_PAYLOAD && START_PAYLOAD.test(payload) ? payload : null;
      ctx.account = await register(ctx, utmSource);
    }
    await next();
  });

  /** Counts a paid request against the per-minute limit; says so and answers false when over it. */
  async function withinLimit(ctx: BotContext, catalog: Catalog): Promise<boolean> {
    const wait = await deps.limiter.consume(ctx.account.telegramId, catalog.settings.messagesPerMinute);
    if (wait > 0) await reply(ctx, texts.rateLimited(wait));
    return wait === 0;
  }

  async function answer(ctx: BotContext, input: Omit<AskInput, 'chat' | 'catalog' | 'model'> & { model?: string }) {
    const catalog = await deps.catalog.get();
    if (!(await withinLimit(ctx, catalog))) return;
    const model = modelFor(catalog, input.model ?? ctx.account.model);
    if (!model) return void (await reply(ctx, texts.noModels));
    const sink = answerMessage({
      api: ctx.api,
      chatId: ctx.account.chatId,
      intervalMs: config.BOT_STREAM_EDIT_INTERVAL_MS,
      logger,
    });
    const outcome = await ask(deps, { ...input, chat: ctx.account, catalog, model }, sink);
    if (outcome.kind === 'insufficient') {
      await reply(ctx, texts.insufficient(outcome.needed, outcome.available), keyboards.topUp());
    }
  }

  async function download(ctx: BotContext, fileId: string): Promise<Buffer> {
    const file = await ctx.api.getFile(fileId);
    const response = await fetch(`${config.TELEGRAM_API_URL}/file/bot${config.TELEGRAM_BOT_TOKEN}/${file.file_path}`, {
      signal: AbortSignal.timeout(60_000),
    });
    if (!response.ok) throw new Error(`file download failed: ${response.status}`);
    return Buffer.from(await response.arrayBuffer());
  }

  async function showBalance(ctx: BotContext) {
    const balance = await api.balance(ctx.account.telegramId);
    await reply(ctx, texts.balance(balance, ctx.account.webLinked), keyboards.balance(ctx.account.webLinked));
  }

  async function showModels(ctx: BotContext) {
    const catalog = await deps.catalog.get();
    const models = chatModels(catalog);
    if (models.length === 0) return void (await reply(ctx, texts.noModels));
    const current = modelFor(catalog, ctx.account.model)?.model ?? '';
    const per1000 = (model: (typeof models)[number]) => ({
      input: creditsFor(catalog, model, { inputTokens: 1000, outputTokens: 0 }),
      output: creditsFor(catalog, model, { inputTokens: 0, outputTokens: 1000 }),
    });
    await reply(ctx, texts.models(models, current, per1000), keyboards.models(models, current));
  }

  async function showBuy(ctx: BotContext) {
    const { tariffs } = await api.tariffs();
    await reply(ctx, texts.buy(tariffs), keyboards.buy(tariffs));
  }

  async function offerPayment(ctx: BotContext, payment: CreatePaymentResponse) {
    if (payment.confirmation_url) {
      await chats.setAwaitingEmail(ctx.account.telegramId, null);
      await reply(ctx, texts.payment(payment), keyboards.url(buttons.pay(payment.amount), payment.confirmation_url));
    } else {
      await chats.setAwaitingEmail(ctx.account.telegramId, payment.payment_id);
      await reply(ctx, texts.askEmail);
    }
  }

  async function startPayment(ctx: BotContext, target: { amount?: string; tariff_id?: number }) {
    try {
      await offerPayment(ctx, await api.createPayment({ telegram_id: ctx.account.telegramId, ...target }));
    } catch (err) {
      if (!(err instanceof ServiceCallError) || err.status >= 500) throw err;
      await reply(ctx, texts.paymentFailed(err.message));
    }
  }

  async function showLink(ctx: BotContext) {
    if (ctx.account.webLinked) return void (await reply(ctx, texts.alreadyLinked));
    const link = await api.linkToken(ctx.account.telegramId);
    await reply(ctx, texts.link, keyboards.url(buttons.link, link.url));
  }

  privateChats.command('start', async (ctx) => {
    if (ctx.match === LINK_START_PAYLOAD) return showLink(ctx);
    const [balance, catalog] = await Promise.all([api.balance(ctx.account.telegramId), deps.catalog.get()]);
    // The welcome grant, in messages of the default model: a typical message is 500 tokens in, 500 out.
    const model = modelFor(catalog, null);
    const gift =
      balance.welcome_credits > 0
        ? {
            credits: balance.welcome_credits,
            model: model?.model ?? catalog.settings.defaultModel,
            messages: model
              ? typicalMessagesFor(balance.welcome_credits, typicalMessageCost(model, catalog.settings.cost))
              : null,
          }
        : null;
    await reply(
      ctx,
      texts.welcome(ctx.from.first_name, balance, deps.provider.kind === 'sandbox', gift),
      keyboards.welcome(config.SITE_URL),
    );
  });
  privateChats.command('help', (ctx) => reply(ctx, texts.help));
  privateChats.command('new', async (ctx) => {
    await chats.startConversation(ctx.account.telegramId);
    await reply(ctx, texts.newConversation);
  });
  privateChats.command('balance', showBalance);
  privateChats.command('model', showModels);
  privateChats.command('buy', showBuy);
  privateChats.command('link', showLink);
  privateChats.command('image', async (ctx) => {
    const prompt = ctx.match.trim();
    if (!prompt) return void (await reply(ctx, texts.imageUsage));
    const catalog = await deps.catalog.get();
    if (!(await withinLimit(ctx, catalog))) return;
    const outcome = await draw(deps, { chat: ctx.account, catalog, prompt }, async () => {
      await ctx.api.sendChatAction(ctx.account.chatId, 'upload_photo').catch(() => undefined);
    });
    switch (outcome.kind) {
      case 'drawn':
        await ctx.api.sendPhoto(ctx.account.chatId, new InputFile(outcome.png, 'image.png'), {
          caption: texts.imageCaption(prompt),
          parse_mode: 'HTML',
        });
        return;
      case 'not_in_tariff':
        return void (await reply(ctx, texts.imageNotInTariff, keyboards.topUp()));
      case 'unavailable':
        return void (await reply(ctx, texts.noImageModel));
      case 'insufficient':
        return void (await reply(ctx, texts.insufficient(outcome.needed, outcome.available), keyboards.topUp()));
      case 'failed':
        return void (await reply(ctx, texts.modelFailed));
    }
  });

  privateChats.callbackQuery('menu:model', async (ctx) => {
    await ctx.answerCallbackQuery();
    await showModels(ctx);
  });
  privateChats.callbackQuery('menu:balance', async (ctx) => {
    await ctx.answerCallbackQuery();
    await showBalance(ctx);
  });
  privateChats.callbackQuery('menu:buy', async (ctx) => {
    await ctx.answerCallbackQuery();
    await showBuy(ctx);
  });
  privateChats.callbackQuery('menu:image', async (ctx) => {
    await ctx.answerCallbackQuery();
    await reply(ctx, texts.imageUsage);
  });
  privateChats.callbackQuery('menu:link', async (ctx) => {
    await ctx.answerCallbackQuery();
    await showLink(ctx);
  });
  privateChats.callbackQuery(/^model:(\d+)$/, async (ctx) => {
    const catalog = await deps.catalog.get();
    const model = chatModels(catalog).find((option) => option.id === Number(ctx.match[1]));
    if (!model) {
      await ctx.answerCallbackQuery({ text: texts.modelUnavailable, show_alert: true });
      return;
    }
    await chats.setModel(ctx.account.telegramId, model.model);
    await ctx.answerCallbackQuery({ text: `✅ ${model.model}` });
    await reply(ctx, texts.modelChosen(model.model));
  });
  privateChats.callbackQuery(/^buy:topup:(\d+)$/, async (ctx) => {
    await ctx.answerCallbackQuery();
    await startPayment(ctx, { amount: `${ctx.match[1]}.00` });
  });
  privateChats.callbackQuery(/^buy:tariff:(\d+)$/, async (ctx) => {
    await ctx.answerCallbackQuery();
    await startPayment(ctx, { tariff_id: Number(ctx.match[1]) });
  });

  privateChats.on('message:photo', async (ctx) => {
    const largest = ctx.message.photo.at(-1)!;
    const bytes = await download(ctx, largest.file_id);
    const question = ctx.message.caption?.trim() || texts.photoDefaultQuestion;
    const catalog = await deps.catalog.get();
    const content: ContentPart[] = [
      { type: 'text', text: question },
      { type: 'image', dataUrl: `data:image/jpeg;base64,${bytes.toString('base64')}` },
    ];
    await answer(ctx, {
      userMessage: question,
      content,
      image: { bytes, mimeType: 'image/jpeg' },
      model: catalog.settings.visionModel,
    });
  });

  privateChats.on('message:document', async (ctx) => {
    const document = ctx.message.document;
    if ((document.file_size ?? 0) > config.BOT_MAX_DOCUMENT_BYTES) {
      return void (await reply(ctx, texts.documentTooLarge(Math.floor(config.BOT_MAX_DOCUMENT_BYTES / 1024 / 1024))));
    }
    // A name with a line break would forge lines of the prompt and of the stored history.
    const name = safeFileName(document.file_name ?? '') || 'document';
    let extracted;
    try {
      extracted = await deps.documents.read(ctx.account.telegramId, () => download(ctx, document.file_id), {
        fileName: name,
        mimeType: document.mime_type ?? '',
      });
    } catch (err) {
      if (err instanceof DocumentRefusal) {
        return void (await reply(ctx, err.message));
      }
      throw err;
    }
    if (extracted.truncated) await reply(ctx, texts.documentTruncated(extracted.text.length).trim());
    const question = ctx.message.caption?.trim() || texts.documentDefaultQuestion;
    await answer(ctx, {
      userMessage: `📄 ${name}: ${question}`,
      content: `${question}\n\nТекст документа «${name}»:\n"""\n${extracted.text}\n"""`,
    });
  });

  privateChats.on('message:text', async (ctx) => {
    const text = ctx.message.text;
    const awaiting = ctx.account.awaitingEmailPayment;
    if (awaiting) {
      const email = BotPaymentEmailRequest.shape.email.safeParse(text);
      if (email.success) {
        try {
          return void (await offerPayment(ctx, await api.supplyEmail(awaiting, email.data)));
        } catch (err) {
          if (!(err instanceof ServiceCallError) || err.status >= 500) throw err;
          await chats.setAwaitingEmail(ctx.account.telegramId, null);
          return void (await reply(ctx, texts.paymentFailed(err.message)));
        }
      }
      if (text.includes('@') && !text.includes(' ')) return void (await reply(ctx, texts.badEmail));
      await chats.setAwaitingEmail(ctx.account.telegramId, null);
    }
    if (text.startsWith('/')) return void (await reply(ctx, texts.help));
    await answer(ctx, { userMessage: text, content: text });
  });

  privateChats.on('message', (ctx) => reply(ctx, texts.unsupportedMessage));
  return bot;
}
