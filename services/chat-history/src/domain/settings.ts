import {
  type AdminSysValsQuery,
  COST_SETTING_KEYS,
  type CostSettings,
  DEFAULT_BOT_SETTINGS,
  DEFAULT_COST_SETTINGS,
  isValidCostSetting,
  type SysVal,
} from '@gpt/contracts';
import { badRequest, conflict, notFound, type Logger } from '@gpt/kit';
import type { Kysely } from 'kysely';
import type { ChatHistoryDatabase } from '../data/schema';
import { sysValsRepository } from '../data/sys-vals.repository';

type Db = Kysely<ChatHistoryDatabase>;

const isCostKey = (key: string): key is keyof CostSettings => (COST_SETTING_KEYS as readonly string[]).includes(key);

const settingNotFound = () => notFound('Настройка не найдена', 'setting_not_found');

/** The message price is made of these settings, so they must stay positive numbers. */
function assertUsableValue(key: string, value: string): void {
  if (isCostKey(key) && !isValidCostSetting(value)) {
    throw badRequest(
      `Значение ${key} должно быть положительным числом (не более 6 знаков после точки, не больше 1 000 000)`,
      'invalid_setting_value',
    );
  }
}

export function settingsUseCases(db: Db, logger: Logger) {
  const settings = sysValsRepository(db);
  return {
    /** The settings the cost formula and the bot need, created on first start and never overwritten. */
    async seed(): Promise<void> {
      const created = await settings.insertMissing({ ...DEFAULT_COST_SETTINGS, ...DEFAULT_BOT_SETTINGS });
      if (created > 0) logger.info({ created }, 'default settings created');
    },

    list(query: AdminSysValsQuery) {
      return settings.list({ ...query, offset: (query.page - 1) * query.limit });
    },

    all: () => settings.all(),

    async create(key: string, value: string): Promise<SysVal> {
      assertUsableValue(key, value);
      const created = await settings.create(key, value);
      if (!created) throw conflict(`Настройка с ключом ${key} уже существует`, 'setting_exists');
      return created;
    },

    async update(key: string, value: string): Promise<SysVal> {
      assertUsableValue(key, value);
      const updated = await settings.update(key, value);
      if (!updated) throw settingNotFound();
      return updated;
    },

    async remove(key: string): Promise<void> {
      if (isCostKey(key)) {
        throw conflict(
          `Настройка ${key} используется в расчёте стоимости сообщений, её нельзя удалить`,
          'setting_in_use',
        );
      }
      if (!(await settings.delete(key))) throw settingNotFound();
    },

    /** The cost settings now; a missing or broken one (only possible by hand in the database) falls back to its default. */
    async costSettings(): Promise<CostSettings> {
      const stored = await settings.all();
      const result = { ...DEFAULT_COST_SETTINGS };
      for (const key of COST_SETTING_KEYS) {
        const value = stored[key];
        if (value !== undefined && isValidCostSetting(value)) result[key] = value;
        else logger.warn({ key, value }, 'cost setting missing or invalid; using its default');
      }
      return result;
    },
  };
}
