import {
  type AdminSysValsQuery,
  COST_SETTING_KEYS,
  type CostSettings,
  DEFAULT_BOT_SETTINGS,
  DEFAULT_COST_SETTINGS,
  DEFAULT_PAYMENT_SETTINGS,
  DEFAULT_REFERRAL_SETTINGS,
  DEFAULT_SUBSCRIPTION_SETTINGS,
  DEFAULT_WELCOME_SETTINGS,
  isReferralSettingKey,
  isSubscriptionSettingKey,
  isValidCostSetting,
  MAX_WELCOME_CREDITS,
  parseReferralSetting,
  parseSubscriptionSetting,
  parseWelcomeCredits,
  BOT_SETTING_RANGES,
  isRangedBotSettingKey,
  parseRangedBotSetting,
  STAR_RATE_KEY,
  SUBSCRIPTION_SETTING_RANGES,
  referralSettingMax,
  type SuccessResponse,
  type SysValResponse,
  typicalMessageCost,
  TYPICAL_MESSAGE_TOKENS,
  WELCOME_CREDITS_KEY,
  WELCOME_DAILY_LIMIT_KEY,
  WELCOME_PER_ADDRESS_DAILY_KEY,
  type WelcomeOfferResponse,
} from '@gpt/contracts';
import type { AdminAction } from '@gpt/kit';
import type { Kysely } from 'kysely';
import type { ChatHistoryDeps } from '../deps';
import { modelsRepository } from '../data/models.repository';
import type { ChatHistoryDatabase } from '../data/schema';
import { sysValsRepository, type SettingChange } from '../data/sys-vals.repository';
import { chatHistoryErrors } from './errors';

type Db = Kysely<ChatHistoryDatabase>;

const isCostKey = (key: string): key is keyof CostSettings => (COST_SETTING_KEYS as readonly string[]).includes(key);

/** Settings other parts of the product depend on: they can be changed, never deleted. */
const isWelcomeKey = (key: string) =>
  key === WELCOME_CREDITS_KEY || key === WELCOME_DAILY_LIMIT_KEY || key === WELCOME_PER_ADDRESS_DAILY_KEY;
const isRequiredKey = (key: string) =>
  isCostKey(key) ||
  isWelcomeKey(key) ||
  key === STAR_RATE_KEY ||
  isReferralSettingKey(key) ||
  isSubscriptionSettingKey(key);

/** What a required setting is used for, in the refusal to delete it. */
function useOf(key: string): string {
  if (isCostKey(key)) return 'в расчёте стоимости сообщений';
  if (key === STAR_RATE_KEY) return 'для цен в звёздах Telegram';
  if (isSubscriptionSettingKey(key)) return 'для автопродления тарифов';
  return isWelcomeKey(key) ? 'для приветственных кредитов' : 'для бонусов за друзей';
}

/**
 * The message price is made of the cost settings and Stars prices of the star rate, so they must
 * stay positive numbers; the welcome grant, the referral settings and the bot's rate, token and
 * threshold settings are whole numbers within their ranges.
 */
function assertUsableValue(key: string, value: string): void {
  if (isReferralSettingKey(key) && parseReferralSetting(key, value) === null) {
    throw chatHistoryErrors.invalidWholeNumberSetting(key, referralSettingMax(key));
  }
  if ((isCostKey(key) || key === STAR_RATE_KEY) && !isValidCostSetting(value)) {
    throw chatHistoryErrors.invalidCostSetting(key);
  }
  if (isWelcomeKey(key) && parseWelcomeCredits(value) === null) {
    throw chatHistoryErrors.invalidWholeNumberSetting(key, MAX_WELCOME_CREDITS);
  }
  if (isSubscriptionSettingKey(key) && parseSubscriptionSetting(key, value) === null) {
    const { min, max } = SUBSCRIPTION_SETTING_RANGES[key];
    throw chatHistoryErrors.invalidWholeNumberSetting(key, max, min);
  }
  if (isRangedBotSettingKey(key) && parseRangedBotSetting(key, value) === null) {
    const { min, max } = BOT_SETTING_RANGES[key];
    throw chatHistoryErrors.invalidWholeNumberSetting(key, max, min);
  }
}

/** `setting.changed`, written with the change: billing projects the settings it needs (the welcome grant, the star rate, referrals). */
async function announce(trx: Db, bus: ChatHistoryDeps['bus'], changes: SettingChange[]): Promise<void> {
  const changedAt = new Date().toISOString();
  for (const change of changes) await bus.publish(trx, 'setting.changed', { ...change, changed_at: changedAt });
}

/** Every write here changes what the bot and the site read (deps.botReads): each drops those answers when it ends. */
export function settingsUseCases(deps: ChatHistoryDeps) {
  const { db, bus, logger } = deps;
  const settings = sysValsRepository(db);
  const { changing } = deps.botReads;

  /** The cost settings now; a missing or broken one (only possible by hand in the database) falls back to its default. */
  async function costSettings(): Promise<CostSettings> {
    const stored = await settings.all();
    const result = { ...DEFAULT_COST_SETTINGS };
    for (const key of COST_SETTING_KEYS) {
      const value = stored[key];
      if (value !== undefined && isValidCostSetting(value)) result[key] = value;
      else logger.warn({ key, value }, 'cost setting missing or invalid; using its default');
    }
    return result;
  }

  return {
    /** The settings the cost formula, the bot and the welcome grant need, created on first start and never overwritten. */
    async seed(): Promise<void> {
      const created = await changing(() =>
        bus.transaction(async (trx) => {
          const changes = await sysValsRepository(trx).insertMissing({
            ...DEFAULT_COST_SETTINGS,
            ...DEFAULT_BOT_SETTINGS,
            ...DEFAULT_WELCOME_SETTINGS,
            ...DEFAULT_PAYMENT_SETTINGS,
            ...DEFAULT_REFERRAL_SETTINGS,
            ...DEFAULT_SUBSCRIPTION_SETTINGS,
          });
          await announce(trx, bus, changes);
          return changes.length;
        }),
      );
      if (created > 0) logger.info({ created }, 'default settings created');
    },

    list(query: AdminSysValsQuery) {
      return settings.list(query);
    },

    all: () => settings.all(),

    async create(key: string, value: string, action: AdminAction): Promise<SysValResponse> {
      assertUsableValue(key, value);
      return changing(() =>
        bus.transaction(async (trx) => {
          const created = await sysValsRepository(trx).create(key, value);
          if (!created) throw chatHistoryErrors.settingExists(key);
          await announce(trx, bus, [created.change]);
          const record = { action: 'setting.create', target: { type: 'setting', id: key }, after: { value } };
          return action.finish(trx, record, { success: true, data: created.setting });
        }),
      );
    },

    async update(key: string, value: string, action: AdminAction): Promise<SysValResponse> {
      assertUsableValue(key, value);
      return changing(() =>
        bus.transaction(async (trx) => {
          const before = await sysValsRepository(trx).valueForUpdate(key);
          const updated = await sysValsRepository(trx).update(key, value);
          if (!updated) throw chatHistoryErrors.settingNotFound();
          await announce(trx, bus, [updated.change]);
          const record = {
            action: 'setting.update',
            target: { type: 'setting', id: key },
            before: { value: before },
            after: { value },
          };
          return action.finish(trx, record, { success: true, data: updated.setting });
        }),
      );
    },

    async remove(key: string, action: AdminAction): Promise<SuccessResponse> {
      if (isRequiredKey(key)) throw chatHistoryErrors.settingInUse(key, useOf(key));
      return changing(() =>
        bus.transaction(async (trx) => {
          const before = await sysValsRepository(trx).valueForUpdate(key);
          const deleted = await sysValsRepository(trx).delete(key);
          if (!deleted) throw chatHistoryErrors.settingNotFound();
          await announce(trx, bus, [deleted]);
          const record = { action: 'setting.delete', target: { type: 'setting', id: key }, before: { value: before } };
          return action.finish(trx, record, { success: true });
        }),
      );
    },

    /** The welcome grant a new person gets now and what a typical message costs with the default model. */
    async welcomeOffer(): Promise<WelcomeOfferResponse> {
      const stored = await settings.all();
      const model = await modelsRepository(db).findByName(stored.default_model ?? DEFAULT_BOT_SETTINGS.default_model);
      return {
        welcome_credits: parseWelcomeCredits(stored.welcome_credits ?? DEFAULT_WELCOME_SETTINGS.welcome_credits) ?? 0,
        model: model?.model ?? null,
        ...TYPICAL_MESSAGE_TOKENS,
        message_credits: model ? typicalMessageCost(model, await costSettings()) : null,
      };
    },

    costSettings,
  };
}
