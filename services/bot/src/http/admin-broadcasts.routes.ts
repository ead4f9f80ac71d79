import { badRequest, conflict, idempotencyStore, routeHandlers, serviceUnavailable } from '@gpt/kit';
import { GrammyError } from 'grammy';
import type { BotDeps } from '../deps';
import { broadcastsAdmin } from '../domain/broadcasts';
import { broadcastMessage, sendBroadcastMessage } from '../telegram/broadcaster';

/** The admin's «Рассылки» (docs/bot.md, Broadcasts): served by the bot, which sends them. */
export function adminBroadcastsRoutes(deps: BotDeps) {
  const broadcasts = broadcastsAdmin(deps);
  const idempotency = idempotencyStore({ ...deps, service: 'bot' });
  return routeHandlers('bot', {
    getAdminBroadcasts: ({ query }) => broadcasts.list(query),
    getAdminBroadcastsById: ({ params }) => broadcasts.one(params.id),
    postAdminBroadcastsCount: ({ body }) => broadcasts.count(body.audience),
    postAdminBroadcastsPreview: ({ body }) => {
      const { html, keyboard } = broadcastMessage(body);
      const button = keyboard?.inline_keyboard[0]?.[0];
      return {
        html,
        photo_url: body.photo_url,
        button: button ? { text: button.text, url: 'url' in button ? button.url : null } : null,
      };
    },
    postAdminBroadcastsTest: async ({ body, req }) => {
      const profile = await deps.services.adminProfile(req.get('authorization') ?? '');
      if (profile.telegram_id === null)
        throw conflict(
          'Сначала привяжите свой Telegram к аккаунту: «Связать» в боте или на странице аккаунта',
          'telegram_not_linked',
        );
      const api = deps.telegram.api();
      if (!api) throw serviceUnavailable('Бот не подключён к Telegram', 'telegram_off');
      try {
        await sendBroadcastMessage(api, profile.telegram_id, body);
      } catch (err) {
        if (err instanceof GrammyError)
          throw badRequest(`Telegram не принял сообщение: ${err.description}`, 'telegram_refused');
        throw err;
      }
      return { telegram_id: profile.telegram_id };
    },
    postAdminBroadcasts: {
      idempotency,
      handle: ({ body, claims }) => broadcasts.create(body, claims),
    },
    postAdminBroadcastsByIdPause: {
      idempotency,
      handle: ({ params }) => broadcasts.move(params.id, 'pause'),
    },
    postAdminBroadcastsByIdResume: {
      idempotency,
      handle: ({ params }) => broadcasts.move(params.id, 'resume'),
    },
    postAdminBroadcastsByIdCancel: {
      idempotency,
      handle: ({ params }) => broadcasts.move(params.id, 'cancel'),
    },
  });
}
