import { DEFAULT_BOT_SETTINGS, DEFAULT_WELCOME_SETTINGS } from './chat-history';
import { DEFAULT_REFERRAL_SETTINGS } from './growth';
import { DEFAULT_COST_SETTINGS, DEFAULT_PAYMENT_SETTINGS } from './pricing';
import { DEFAULT_SUBSCRIPTION_SETTINGS } from './subscriptions';

/** Every setting the services seed and read in sys_vals (docs/product.md, Screens: /admin/sysvals). */
export type KnownSettingKey =
  | keyof typeof DEFAULT_BOT_SETTINGS
  | keyof typeof DEFAULT_WELCOME_SETTINGS
  | keyof typeof DEFAULT_REFERRAL_SETTINGS
  | keyof typeof DEFAULT_COST_SETTINGS
  | keyof typeof DEFAULT_PAYMENT_SETTINGS
  | keyof typeof DEFAULT_SUBSCRIPTION_SETTINGS;

/** The sections of /admin/sysvals, in the order the screen shows them. */
export const SETTING_GROUPS = [
  'Цены и оплата',
  'Модели',
  'Бот',
  'Приветственные кредиты',
  'Рефералы',
  'Автопродление',
] as const;
export type SettingGroup = (typeof SETTING_GROUPS)[number];

/** What each setting does, in Russian, and its section: the one table the admin's settings screen explains them from. */
export const SETTING_DESCRIPTIONS = {
  usd_rub_rate: { group: 'Цены и оплата', text: 'Курс доллара в рублях, по которому цена модели переводится в рубли.' },
  credit_markup: { group: 'Цены и оплата', text: 'Наценка: во сколько раз пользователь платит больше цены модели.' },
  credits_per_rub: { group: 'Цены и оплата', text: 'Сколько кредитов стоит один рубль этой цены.' },
  star_rate_rub: {
    group: 'Цены и оплата',
    text: 'Рублей за одну звезду Telegram: цена в звёздах — цена в рублях, делённая на него.',
  },
  default_model: { group: 'Модели', text: 'Модель, с которой начинается новый диалог.' },
  vision_model: { group: 'Модели', text: 'Модель, которая читает фотографии.' },
  image_model: { group: 'Модели', text: 'Модель, которая рисует изображения.' },
  transcription_model: { group: 'Модели', text: 'Модель, которая переводит голосовые сообщения в текст.' },
  speech_model: { group: 'Модели', text: 'Модель, которая озвучивает ответы.' },
  speech_voice: { group: 'Модели', text: 'Голос озвучивания.' },
  bot_messages_per_minute: {
    group: 'Бот',
    text: 'Сколько сообщений в минуту может отправить один пользователь Telegram.',
  },
  low_balance_threshold: {
    group: 'Бот',
    text: 'Меньше этого числа доступных кредитов бот предупреждает о низком балансе.',
  },
  max_output_tokens: { group: 'Бот', text: 'Самый длинный ответ модели, в токенах.' },
  context_token_budget: { group: 'Бот', text: 'Сколько токенов прежних сообщений отправляется вместе с новым.' },
  broadcast_messages_per_second: {
    group: 'Бот',
    text: 'Сколько сообщений рассылки бот отправляет в секунду, всего (от 1 до 25: остальное из 30 в секунду, что позволяет Telegram, — для ответов).',
  },
  welcome_credits: {
    group: 'Приветственные кредиты',
    text: 'Кредиты, которые каждый новый пользователь получает один раз; 0 — не дарить.',
  },
  welcome_daily_limit: {
    group: 'Приветственные кредиты',
    text: 'Сколько человек в сутки получают приветственные кредиты (сутки — по Гринвичу).',
  },
  welcome_per_address_daily: {
    group: 'Приветственные кредиты',
    text: 'Сколько из них в сутки могут зарегистрироваться с одного адреса.',
  },
  referral_percent: { group: 'Рефералы', text: 'Процент кредитов оплатившего друга, который получает пригласивший.' },
  referral_max_credits_per_friend: {
    group: 'Рефералы',
    text: 'Больше этого числа кредитов за одного друга пригласивший не получит; 0 — без наград.',
  },
  renewal_lead_hours: {
    group: 'Автопродление',
    text: 'За сколько часов до конца оплаченного срока списывается следующий месяц с сохранённой карты.',
  },
  renewal_reminder_days: {
    group: 'Автопродление',
    text: 'За сколько дней до списания пользователь получает напоминание в боте и по почте.',
  },
  renewal_retry_first_days: {
    group: 'Автопродление',
    text: 'Через сколько дней после отказа банка списание повторяется в первый раз.',
  },
  renewal_retry_second_days: {
    group: 'Автопродление',
    text: 'Через сколько дней после первого отказа банка списание повторяется во второй раз.',
  },
  renewal_grace_days: {
    group: 'Автопродление',
    text: 'Сколько дней после конца срока тариф ещё действует, пока повторяются неудачные списания.',
  },
} as const satisfies Record<KnownSettingKey, { group: SettingGroup; text: string }>;

/** The description and section of a setting, or undefined for one the services do not read. */
export function settingDescription(key: string): { group: SettingGroup; text: string } | undefined {
  return Object.hasOwn(SETTING_DESCRIPTIONS, key) ? SETTING_DESCRIPTIONS[key as KnownSettingKey] : undefined;
}
