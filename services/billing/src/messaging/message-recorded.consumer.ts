import type { BillingDeps } from '../deps';
import { chargeMessage } from '../domain/charge-message';
import type { BillingConsumer } from './consumer';

/** Every recorded message is charged once (reference `message:<id>`). */
export function messageRecordedConsumer(deps: BillingDeps): BillingConsumer<'message.recorded'> {
  return {
    event: 'message.recorded',
    async handle(trx, event) {
      await chargeMessage(trx, deps.bus, event.data);
    },
  };
}
