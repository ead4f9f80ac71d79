import { describe, expect, test } from '@jest/globals';
import { API_CONSTANTS, Bot, type Composer } from 'grammy';
import type { Update } from 'grammy/types';
import { createSandboxBotApi } from '@gpt/telegram-sandbox';
import type { BotDeps } from '../src/deps';
import { encodeCallback } from '../src/telegram/callbacks';
import type { BotContext, UpdateType } from '../src/telegram/context';
import { ALLOWED_UPDATES, chatFeatures, preCheckout, type Feature } from '../src/bot';
import { everyCallback } from './support/callbacks';

/**
 * Telegram delivers only the update types the bot asks for (docs/bot.md), so every type a feature's
 * handlers take must be in its declared list: here each feature meets one update of every type it did
 * not declare and must let it pass untouched — no handler run, no dependency read, no Bot API call.
 */

const user = { id: 42, is_bot: false, first_name: 'Тест' };
const chat = { id: 42, type: 'private', first_name: 'Тест' };
const message = {
  message_id: 1,
  date: 0,
  chat,
  from: user,
  text: '/start',
  entities: [{ type: 'bot_command', offset: 0, length: 6 }],
};
const channel = { id: -100, type: 'channel', title: 'Канал' };

/** One plausible update of each type: messages of every kind are commands in a private chat. */
const SAMPLES: Partial<Record<UpdateType, unknown>> = {
  message,
  edited_message: { ...message, edit_date: 0 },
  channel_post: { ...message, chat: channel, from: undefined },
  edited_channel_post: {
    ...message,
    chat: channel,
    from: undefined,
    edit_date: 0,
  },
  business_message: { ...message, business_connection_id: 'b' },
  edited_business_message: {
    ...message,
    business_connection_id: 'b',
    edit_date: 0,
  },
  inline_query: { id: '1', from: user, query: 'привет', offset: '' },
  chosen_inline_result: { result_id: '1', from: user, query: 'привет' },
  shipping_query: {
    id: '1',
    from: user,
    invoice_payload: 'p',
    shipping_address: {
      country_code: 'RU',
      state: '',
      city: 'М',
      street_line1: 'у',
      street_line2: '',
      post_code: '1',
    },
  },
  pre_checkout_query: {
    id: '1',
    from: user,
    currency: 'XTR',
    total_amount: 1,
    invoice_payload: 'p',
  },
  poll: {
    id: '1',
    question: '?',
    options: [],
    total_voter_count: 0,
    is_closed: false,
    is_anonymous: true,
  },
  poll_answer: { poll_id: '1', user, option_ids: [0] },
  my_chat_member: {
    chat,
    from: user,
    date: 0,
    old_chat_member: { status: 'member', user },
    new_chat_member: { status: 'kicked', user, until_date: 0 },
  },
  chat_member: {
    chat,
    from: user,
    date: 0,
    old_chat_member: { status: 'member', user },
    new_chat_member: { status: 'left', user },
  },
  chat_join_request: { chat, from: user, user_chat_id: 42, date: 0 },
  message_reaction: {
    chat,
    message_id: 1,
    user,
    date: 0,
    old_reaction: [],
    new_reaction: [],
  },
};

/** A press of every kind of the bot's buttons. */
const PRESSES = everyCallback()
  .map(encodeCallback)
  .map((data) => ({ id: '1', from: user, chat_instance: '1', data, message }));

const samplesOf = (type: UpdateType): unknown[] =>
  type === 'callback_query' ? PRESSES : [SAMPLES[type] ?? { from: user, chat, date: 0 }];

/** The bot as getMe describes it, so grammY needs no network. */
const botInfo = createSandboxBotApi({ token: '1:test', name: { first_name: 'Бот', username: 'test_bot' } }).me;

/** Dependencies a feature may keep when it is made, which fail the test once a handler reads them. */
function untouchableDeps() {
  const touched: string[] = [];
  let armed = false;
  const handler: ProxyHandler<() => void> = {
    get(_target, key) {
      if (key === Symbol.toPrimitive) return () => '';
      if (armed) touched.push(String(key));
      if (armed) throw new Error(`a handler read deps.${String(key)}`);
      return proxy;
    },
    apply() {
      if (armed) throw new Error('a handler called a dependency');
      return proxy;
    },
  };
  const proxy: unknown = new Proxy(() => undefined, handler);
  return { deps: proxy as BotDeps, touched, arm: () => (armed = true) };
}

/** What a feature did with updates of one type: `passed` when it let each go on untouched. */
async function outcome(feature: Feature<BotContext>, inPrivateChats: boolean, type: UpdateType): Promise<string> {
  for (const sample of samplesOf(type)) {
    const taken = await outcomeOf(feature, inPrivateChats, {
      update_id: 1,
      [type]: sample,
    } as unknown as Update);
    if (taken !== 'passed') return taken;
  }
  return 'passed';
}

async function outcomeOf(feature: Feature<BotContext>, inPrivateChats: boolean, update: Update): Promise<string> {
  const { deps, touched, arm } = untouchableDeps();
  const bot = new Bot<BotContext>('1:test', { botInfo });
  const apiCalls: string[] = [];
  bot.api.config.use((_prev, method) => {
    apiCalls.push(method);
    throw new Error(`a handler called ${method}`);
  });
  const made = feature.make(deps) as unknown as Composer<BotContext>;
  if (inPrivateChats) bot.chatType('private').use(made);
  else bot.use(made);
  let passed = false;
  bot.use(() => {
    passed = true;
  });
  arm();
  const failure = await bot.handleUpdate(update).then(
    () => '',
    (err: unknown) => String(err),
  );
  if (passed && !failure && touched.length === 0 && apiCalls.length === 0) return 'passed';
  return `taken (${[failure, ...touched, ...apiCalls].filter(Boolean).join('; ') || 'no next()'})`;
}

const undeclared = (feature: Feature<BotContext>) =>
  API_CONSTANTS.ALL_UPDATE_TYPES.filter((type) => !feature.updates.includes(type));

describe('the update types the bot asks Telegram for', () => {
  test.each(chatFeatures.map((feature) => [feature.name, feature] as const))(
    'the %s feature takes no update type it did not declare',
    async (_name, feature) => {
      for (const type of undeclared(feature as Feature<BotContext>))
        expect([type, await outcome(feature as Feature<BotContext>, true, type)]).toEqual([type, 'passed']);
    },
  );

  test('the pre-checkout feature takes pre-checkout queries and nothing else', async () => {
    expect(await outcome(preCheckout, false, 'pre_checkout_query')).toMatch(/^taken/);
    for (const type of undeclared(preCheckout))
      expect([type, await outcome(preCheckout, false, type)]).toEqual([type, 'passed']);
  });

  test('the bot asks for exactly the types its features declare', () => {
    expect([...ALLOWED_UPDATES].sort()).toEqual(['callback_query', 'message', 'pre_checkout_query']);
  });
});
