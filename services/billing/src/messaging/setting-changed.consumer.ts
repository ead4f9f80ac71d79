import { rememberSetting } from '../domain/welcome-grant';
import type { BillingConsumer } from './consumer';

/** chat-history's settings billing needs (the welcome grant's `welcome_credits`), newest version kept. */
export const settingChangedConsumer: BillingConsumer<'setting.changed'> = {
  event: 'setting.changed',
  handle: (trx, event) => rememberSetting(trx, event.data),
};
