import type { ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { API_CONSTANTS } from 'grammy';
import type { Update } from 'grammy/types';
import { waitToBeWoken, type Poller } from './long-poll';
import { BotApiError, badRequest, type Handler, type Params } from './params';
import type { SandboxBotApi } from './types';

/** What a bot gets when it never named the update types it wants: all but three. */
const DEFAULT_UPDATE_TYPES: readonly string[] = API_CONSTANTS.DEFAULT_UPDATE_TYPES;
const ALL_UPDATE_TYPES: readonly string[] = API_CONSTANTS.ALL_UPDATE_TYPES;

export type SandboxUpdates = ReturnType<typeof createUpdates>;

/**
 * The updates the bot receives: one queue, taken by long polling (`getUpdates`) or POSTed to the
 * bot's webhook, holding only the types the bot asked for (`allowed_updates`).
 */
export function createUpdates() {
  const queue: Update[] = [];
  const pollers = new Set<Poller>();
  let nextUpdateId = 1;
  let webhook: SandboxBotApi['webhook'] = null;
  let allowedUpdates = DEFAULT_UPDATE_TYPES;
  let webhookDelivery = Promise.resolve();
  let closed = false;

  /**
   * Queues an update of a type the bot asked for; others are never delivered (Telegram filters when
   * an update is made, so a changed list does not reach updates already queued).
   */
  function push(fields: Omit<Update, 'update_id'>): Update {
    const update = { update_id: nextUpdateId++, ...fields } as Update;
    if (!Object.keys(fields).every((type) => allowedUpdates.includes(type))) return update;
    queue.push(update);
    if (webhook) deliverToWebhook();
    else for (const poller of pollers) poller.wake();
    return update;
  }

  /** Sends queued updates one at a time, as Telegram does, retrying a refused delivery a few times. */
  function deliverToWebhook(): void {
    webhookDelivery = webhookDelivery.then(async () => {
      while (webhook && queue.length > 0 && !closed) {
        const { url, secret_token } = webhook;
        const update = queue[0]!;
        for (let attempt = 1; attempt <= 5; attempt++) {
          const ok = await fetch(url, {
            method: 'POST',
            headers: {
              'Content-Type': 'application/json',
              ...(secret_token ? { 'X-Telegram-Bot-Api-Secret-Token': secret_token } : {}),
            },
            body: JSON.stringify(update),
          }).then(
            (res) => res.ok,
            () => false,
          );
          if (ok || closed) break;
          await sleep(100 * attempt);
        }
        queue.shift();
      }
    });
  }

  /** `allowed_updates` as getUpdates and setWebhook take it: omitted keeps the last list, empty means the default. */
  function allowUpdates(params: Params): void {
    const types = params.object<unknown>('allowed_updates');
    if (types === undefined || types === null) return;
    if (!Array.isArray(types)) throw badRequest("can't parse allowed_updates JSON array");
    const known = types.filter((type): type is string => typeof type === 'string' && ALL_UPDATE_TYPES.includes(type));
    allowedUpdates = known.length > 0 ? known : DEFAULT_UPDATE_TYPES;
  }

  /** Long polling: answers at once when updates at or after `offset` are queued, else when one arrives or `timeout` ends. */
  async function getUpdates(params: Params, res: ServerResponse): Promise<Update[]> {
    if (webhook)
      throw new BotApiError(
        409,
        "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first",
      );
    allowUpdates(params);
    const offset = params.number('offset') ?? 0;
    const limit = Math.min(Math.max(params.number('limit') ?? 100, 1), 100);
    const timeoutSec = params.number('timeout') ?? 0;
    if (offset > 0) while (queue.length > 0 && queue[0]!.update_id < offset) queue.shift();
    const pending = () => (offset < 0 ? queue.slice(offset) : queue).slice(0, limit);
    if (pending().length > 0 || timeoutSec <= 0 || closed) return pending();

    // A newer long poll ends an older one, as Telegram does when two bot instances poll.
    for (const poller of pollers) poller.wake(true);
    const terminated = await waitToBeWoken(pollers, timeoutSec * 1000, (wake) => res.once('close', wake));
    if (terminated)
      throw new BotApiError(
        409,
        'Conflict: terminated by other getUpdates request; make sure that only one bot instance is running',
      );
    if (webhook) return [];
    return pending();
  }

  const handlers: Record<string, Handler> = {
    setWebhook: (params) => {
      const url = params.string('url') ?? '';
      allowUpdates(params);
      if (params.values.drop_pending_updates === true) queue.length = 0;
      if (url === '') {
        webhook = null;
        return true;
      }
      if (!/^https?:\/\//.test(url)) throw badRequest('bad webhook: An HTTPS URL must be provided for webhook');
      const secret = params.string('secret_token');
      if (secret !== undefined && !/^[A-Za-z0-9_-]{1,256}$/.test(secret))
        throw badRequest('secret token contains unallowed characters');
      webhook = secret ? { url, secret_token: secret } : { url };
      for (const poller of pollers) poller.wake();
      deliverToWebhook();
      return true;
    },

    deleteWebhook: (params) => {
      if (params.values.drop_pending_updates === true) queue.length = 0;
      webhook = null;
      return true;
    },

    getWebhookInfo: () => ({
      url: webhook?.url ?? '',
      has_custom_certificate: false,
      pending_update_count: queue.length,
    }),
  };

  return {
    handlers,
    getUpdates,
    push,
    /** The same update again, as Telegram may deliver it after a network failure (a new update id). */
    redeliver(update: Update): Update {
      const { update_id: _id, ...fields } = update;
      return push(fields);
    },
    /** The id the next update gets (query ids are made from it). */
    get nextId() {
      return nextUpdateId;
    },
    get webhook() {
      return webhook;
    },
    get allowedUpdates() {
      return allowedUpdates;
    },
    /** Ends the long polls and waits for the webhook delivery under way. */
    close(): Promise<void> {
      closed = true;
      for (const poller of pollers) poller.wake();
      return webhookDelivery;
    },
  };
}
