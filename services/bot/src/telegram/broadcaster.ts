import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { toTelegramHtml, type BroadcastContent } from '@gpt/contracts';
import { GrammyError, type Api } from 'grammy';
import { broadcastsRepository, type BroadcastRow, type Claimed } from '../data/broadcasts.repository';
import type { BotDeps } from '../deps';
import { recipientsOf } from '../domain/broadcasts';
import { keyboards } from './keyboards';
import { texts } from './texts';
import { asBroadcast } from './throttle';

/** Only one process sends broadcasts at a time: it holds this key, renewing it; another takes over when it lapses. */
const SENDER_KEY = 'bot:broadcasts:sender';
const SENDER_TTL_SEC = 15;
/** A process with nothing to send looks again this often. */
const IDLE_MS = 1_000;
/** Sending stops this often to renew the key and start what became due. */
const SLICE_MS = 5_000;
/** Pause, resume and cancel reach a broadcast being sent within this long. */
const STATUS_EVERY_MS = 250;
/** Deliveries claimed and not yet settled at once: few, so a crash leaves few whose fate is unknown. */
const IN_FLIGHT = 4;
/** A delivery that failed otherwise than by a block is tried this many times in all. */
const MAX_ATTEMPTS = 3;

/** A broadcast's message as Telegram gets it: the text (or the photo's caption), how to stop them, the button. */
export function broadcastMessage(content: BroadcastContent) {
  return {
    html: `${toTelegramHtml(content.text)}\n\n${texts.broadcastFooter}`,
    keyboard: keyboards.broadcast(content.button),
  };
}

export async function sendBroadcastMessage(api: Api, chatId: number, content: BroadcastContent): Promise<void> {
  const { html, keyboard } = broadcastMessage(content);
  const options = { parse_mode: 'HTML' as const, reply_markup: keyboard };
  if (content.photo_url)
    await api.sendPhoto(chatId, content.photo_url, {
      ...options,
      caption: html,
    });
  else await api.sendMessage(chatId, html, options);
}

/** Telegram says the user cannot get messages (blocked the bot, deleted the account): never tried again. */
const refused = (err: unknown): err is GrammyError =>
  err instanceof GrammyError &&
  (err.error_code === 403 || (err.error_code === 400 && /chat not found/i.test(err.description)));

/**
 * Sends the admin's broadcasts (docs/bot.md, Broadcasts). One process at a time holds the sender key;
 * when a broadcast's time comes it fixes its recipients (auth's segment, narrowed by when each user last
 * wrote) as one delivery row each, then claims each row before sending it — a row claimed is never sent
 * again, by this process or another — at `broadcast_messages_per_second` through the throttler's last
 * lane. Telegram's 403 marks the user blocked (as answers do: ./blocked.ts) and counts them; another error
 * is tried again later, three times in all. A process that takes the key over first counts the rows its
 * predecessor claimed and never settled (it died mid-call) as failed: Telegram may have them.
 */
export function broadcaster(
  deps: Pick<BotDeps, 'db' | 'kv' | 'services' | 'catalog' | 'logger' | 'config'>,
  api: Api,
  floodUntil: () => number,
) {
  const owner = randomUUID();
  const repository = broadcastsRepository(deps.db);
  const retryMs = deps.config.BOT_BROADCAST_RETRY_SEC * 1000;
  let holding = false;

  async function holdKey(): Promise<boolean> {
    if (holding && (await deps.kv.get(SENDER_KEY)) === owner) {
      await deps.kv.set(SENDER_KEY, owner, SENDER_TTL_SEC);
      return true;
    }
    holding = await deps.kv.acquire(SENDER_KEY, owner, SENDER_TTL_SEC);
    if (holding) {
      const abandoned = await repository.abandonOthers(owner);
      if (abandoned > 0)
        deps.logger.warn({ abandoned }, 'broadcast deliveries of a process that stopped mid-call counted as failed');
    }
    return holding;
  }

  /** Fixes the recipients of a broadcast whose time came and starts it. */
  async function begin(broadcast: BroadcastRow): Promise<void> {
    const recipients = await recipientsOf(deps, broadcast.audience);
    const started = await repository.start(broadcast.id, recipients);
    if (started) deps.logger.info({ broadcast: broadcast.id, recipients: recipients.length }, 'broadcast started');
  }

  async function deliver(broadcast: BroadcastRow, claim: Claimed, perSecond: number): Promise<void> {
    try {
      await asBroadcast(perSecond, () => sendBroadcastMessage(api, claim.telegramId, broadcast.content));
      await repository.settle(claim, { status: 'sent' });
    } catch (err) {
      if (refused(err))
        return repository.settle(claim, {
          status: 'blocked',
          error: err.description,
        });
      // Auto-retry waits out a 429 of up to a minute; a longer one puts the row back, untried.
      if (err instanceof GrammyError && err.error_code === 429) return repository.settle(claim, { status: 'pending' });
      const error = err instanceof Error ? err.message : String(err);
      const tries = claim.attempts + 1;
      deps.logger.warn(
        { err, broadcast: broadcast.id, telegramId: claim.telegramId, tries },
        'broadcast message failed',
      );
      await repository.settle(
        claim,
        tries < MAX_ATTEMPTS
          ? {
              status: 'retry',
              error,
              nextAt: new Date(Date.now() + retryMs * tries),
            }
          : { status: 'failed', error },
      );
    }
  }

  /** Sends the broadcast for a slice of time; answers how long to wait before the next round. */
  async function send(broadcast: BroadcastRow, stopping: () => boolean): Promise<number> {
    const { settings } = await deps.catalog.get();
    const perSecond = settings.broadcastPerSecond * deps.config.TELEGRAM_TEST_SPEEDUP;
    const inFlight = new Set<Promise<void>>();
    const until = Date.now() + SLICE_MS;
    let checkedAt = Date.now();
    let exhausted = false;
    // Paced here, before the claim, so a claimed row goes to Telegram at once (the throttler spaces them again
    // and puts answers first): a crash leaves at most the few at Telegram claimed and unsettled.
    let nextAt = 0;
    while (!stopping() && Date.now() < until) {
      const wait = Math.max(nextAt, floodUntil()) - Date.now();
      if (wait > 0) {
        await sleep(Math.min(wait, STATUS_EVERY_MS));
        continue;
      }
      if (Date.now() - checkedAt >= STATUS_EVERY_MS) {
        if ((await repository.status(broadcast.id)) !== 'sending') break;
        checkedAt = Date.now();
      }
      if (inFlight.size >= IN_FLIGHT) {
        await Promise.race(inFlight);
        continue;
      }
      nextAt = Date.now() + 1000 / perSecond;
      const claim = await repository.claim(broadcast.id, owner);
      if (!claim) {
        exhausted = true;
        break;
      }
      const delivery: Promise<void> = deliver(broadcast, claim, perSecond).finally(() => inFlight.delete(delivery));
      inFlight.add(delivery);
    }
    await Promise.all(inFlight);
    if (!exhausted) return 0;
    const next = await repository.nextDue(broadcast.id);
    if (next === null) {
      if (await repository.move(broadcast.id, ['sending'], 'done'))
        deps.logger.info({ broadcast: broadcast.id }, 'broadcast done');
      return 0;
    }
    return next === 'now' ? IDLE_MS : Math.min(IDLE_MS, Math.max(0, next.getTime() - Date.now()));
  }

  async function round(stopping: () => boolean): Promise<number> {
    if (!(await holdKey())) return IDLE_MS;
    for (const due of await repository.due()) await begin(due);
    const current = await repository.sending();
    return current ? send(current, stopping) : IDLE_MS;
  }

  return {
    /** Starts sending in the background; the stop waits for the messages at Telegram and gives the key up. */
    start(): () => Promise<void> {
      let stopped = false;
      const wake = new AbortController();
      const loop = (async () => {
        while (!stopped) {
          const waitMs = await round(() => stopped).catch((err: unknown) => {
            deps.logger.error({ err }, 'a broadcast round failed; trying again');
            return IDLE_MS;
          });
          if (waitMs > 0) await sleep(waitMs, undefined, { signal: wake.signal }).catch(() => undefined);
        }
      })();
      return async () => {
        stopped = true;
        wake.abort();
        await loop;
        if (holding) await deps.kv.release(SENDER_KEY, owner).catch(() => undefined);
      };
    },
  };
}
