import { eventSubscriptions, personName, type EventData } from '@gpt/contracts';
import type { Kysely } from 'kysely';
import { projectionsRepository as projections } from '../data/projections.repository';
import type { MetricsDatabase } from '../data/schema';
import { moscowDay } from './periods';

/** The events the dashboard is made of: what the metrics queue subscribes to in contracts. */
export const METRICS_EVENTS = eventSubscriptions.metrics;
export type MetricsEventType = (typeof METRICS_EVENTS)[number];

/** One of those events, as the projections read it. */
export type MetricsEvent = { [K in MetricsEventType]: { type: K; data: EventData<K> } }[MetricsEventType];

type Db = Kysely<MetricsDatabase>;

/**
 * Folds one event into the projections. The same function serves live consumption and a
 * rebuild, and its result does not depend on the order events arrive in: sums commute, a user
 * counts once however often (and in whatever order) their registration and removal arrive, and
 * the newest message only ever moves forward.
 */
export async function projectEvent(db: Db, event: MetricsEvent): Promise<void> {
  switch (event.type) {
    case 'user.registered':
      return userRegistered(db, event.data.user_id, moscowDay(event.data.created_at));
    case 'user.deleted':
      return userRemoved(db, event.data.user_id, moscowDay(event.data.deleted_at));
    case 'accounts.linked':
      // The Telegram-only account merged into the web account ceases to exist.
      if (event.data.merged_user_id === null) return;
      return userRemoved(db, event.data.merged_user_id, moscowDay(event.data.linked_at));
    case 'payment.succeeded':
      return projections(db).addToDay(moscowDay(event.data.succeeded_at), { deposited_rub: event.data.amount });
    case 'message.recorded': {
      const message = event.data;
      await projections(db).addToDay(moscowDay(message.created_at), { messages: 1, spent_usd: message.total_cost });
      await projections(db).offerLastMessage({
        messageId: message.message_id,
        // Events recorded before the name was sent: the username or the Telegram id they carry.
        username: message.user_name ?? (personName(message) || null),
        createdAt: message.created_at,
        userMessage: message.user_message,
        botResponse: message.bot_response,
        model: message.model,
        totalCost: message.total_cost,
      });
      return;
    }
    default:
      return noProjectionFor(event);
  }
}

/** An event type subscribed to in contracts without a case above fails the typecheck here. */
function noProjectionFor(event: never): never {
  throw new Error(`metrics has no projection for ${(event as { type: string }).type}`);
}

/**
 * A sign-up counts on its day while its user exists, so a period's new users never exceed the
 * users there are; a user whose removal arrived first never counts.
 */
async function userRegistered(db: Db, userId: number, day: string): Promise<void> {
  const presence = await projections(db).lockUserPresence(userId);
  if (presence.registeredDay !== null) return;
  await projections(db).setUserPresence(userId, { ...presence, registeredDay: day });
  if (presence.removedDay === null) await projections(db).addToDay(day, { new_users: 1 });
}

/** A removal counts once: it takes its user off the day they registered on, if that is known. */
async function userRemoved(db: Db, userId: number, day: string): Promise<void> {
  const presence = await projections(db).lockUserPresence(userId);
  if (presence.removedDay !== null) return;
  await projections(db).setUserPresence(userId, { ...presence, removedDay: day });
  if (presence.registeredDay !== null) await projections(db).addToDay(presence.registeredDay, { new_users: -1 });
}
