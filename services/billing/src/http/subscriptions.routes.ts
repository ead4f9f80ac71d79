import type { AdminSubscription } from '@gpt/contracts';
import { idempotencyStore, routeHandlers, type AdminAction } from '@gpt/kit';
import type { BillingDeps } from '../deps';
import { subscriptionsRepository } from '../data/subscriptions.repository';
import { usersRepository } from '../data/users.repository';
import { billingErrors } from '../domain/errors';
import { renewSubscription } from '../domain/renew-subscription';
import {
  adminSubscription,
  cancelAnywhere,
  cancelSubscription,
  renewalConsent,
  resumeStarSubscription,
  subscriptionSettings,
  subscriptionStats,
  userSubscription,
} from '../domain/subscriptions';
import type { Providers } from '../provider';

/** Renewing tariffs: the owner's list, consent and cancel; the bot's /subscription; the admin's «Подписки». */
export function subscriptionsRoutes(deps: BillingDeps, providers: Providers) {
  const subscriptions = subscriptionsRepository(deps.db);
  const idempotency = idempotencyStore({ ...deps, service: 'billing' });
  const listOf = async (userId: number) => {
    const settings = await subscriptionSettings(deps.db);
    return { subscriptions: (await subscriptions.ofUser(userId)).map((row) => userSubscription(row, settings)) };
  };
  const asUser = async (row: Parameters<typeof userSubscription>[0]) =>
    userSubscription(row, await subscriptionSettings(deps.db));
  const telegramUser = async (telegramId: number) => {
    const user = await usersRepository(deps.db).findByTelegramId(telegramId);
    if (!user) throw billingErrors.userNotFound();
    return user;
  };
  /** The admin's view of one subscription, as it is now (inside the change's transaction when given). */
  const adminView = async (id: number, db = deps.db) => {
    const row = await subscriptionsRepository(db).adminRow(id);
    if (!row) throw billingErrors.subscriptionNotFound();
    return adminSubscription(row, await subscriptionSettings(db));
  };
  /** The admin's action on a subscription: its audit entry and kept answer, in the transaction of `db`. */
  const finish = async (
    db: Parameters<AdminAction['finish']>[0] & typeof deps.db,
    id: number,
    action: AdminAction,
    change: { name: string; reason: string | undefined; before: AdminSubscription },
  ) => {
    const answer = await adminView(id, db);
    const record = {
      action: change.name,
      target: { type: 'subscription', id, userId: answer.user_id },
      before: { status: change.before.status, paid_until: change.before.paid_until },
      after: { status: answer.status, paid_until: answer.paid_until, last_failure: answer.last_failure },
      reason: change.reason ?? null,
    };
    return action.finish(db, record, answer);
  };

  return routeHandlers('billing', {
    getBillingSubscriptions: ({ claims }) => listOf(Number(claims.sub)),
    getBillingSubscriptionsConsentByTariffId: ({ params, claims }) =>
      renewalConsent(deps, Number(claims.sub), params.tariff_id),
    deleteBillingSubscriptionsById: async ({ params, claims }) =>
      asUser(await cancelAnywhere(deps, providers, params.id, { userId: Number(claims.sub) })),
    deleteBillingSubscriptionsByIdCard: async ({ params, claims }) =>
      asUser(await cancelAnywhere(deps, providers, params.id, { userId: Number(claims.sub), removeCard: true })),

    getBotSubscriptions: async ({ query }) => listOf((await telegramUser(query.telegram_id)).id),
    getBotSubscriptionsConsentByTariffId: async ({ params, query }) =>
      renewalConsent(deps, (await telegramUser(query.telegram_id)).id, params.tariff_id),
    postBotSubscriptionsByIdCancel: async ({ params, body }) => {
      const user = await telegramUser(body.telegram_id);
      return asUser(await cancelSubscription(deps, params.id, { userId: user.id, telegramCanceled: true }));
    },
    postBotSubscriptionsByIdResume: async ({ params, body }) => {
      const user = await telegramUser(body.telegram_id);
      return asUser(await resumeStarSubscription(deps, params.id, user.id));
    },

    getAdminSubscriptions: async ({ query }) => {
      const settings = await subscriptionSettings(deps.db);
      const { rows, total } = await subscriptions.adminPage(query);
      return { subscriptions: rows.map((row) => adminSubscription(row, settings)), total };
    },
    getAdminSubscriptionsStats: () => subscriptionStats(deps),
    postAdminSubscriptionsByIdRenew: {
      idempotency,
      // The charge settles in its own transactions (the provider is asked between them); the entry follows it.
      handle: async ({ params, body, action }) => {
        const before = await adminView(params.id);
        await renewSubscription(deps, providers, params.id, { force: true });
        return deps.db
          .transaction()
          .execute((trx) =>
            finish(trx, params.id, action, { name: 'subscription.renew', reason: body.reason, before }),
          );
      },
    },
    postAdminSubscriptionsByIdCancel: {
      idempotency,
      handle: async ({ params, body, action }) => {
        const before = await adminView(params.id);
        let answer: AdminSubscription | undefined;
        await cancelAnywhere(deps, providers, params.id, {
          userId: null,
          inside: async (trx) => {
            answer = await finish(trx, params.id, action, { name: 'subscription.cancel', reason: body.reason, before });
          },
        });
        return answer as AdminSubscription;
      },
    },
  });
}
