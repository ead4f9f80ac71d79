import { rememberSetting } from '../domain/welcome-grant';
import type { BillingConsumer } from './consumer';

/** chat-history's settings billing needs (the welcome grant's, the Stars rate `star_rate_rub`, the referral settings), newest version kept. */
export const settingChangedConsumer: BillingConsumer<'setting.changed'> = {
  event: 'setting.changed',
  handle: (trx, event) => rememberSetting(trx, event.data),
};
