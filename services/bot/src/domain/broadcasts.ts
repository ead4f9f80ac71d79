import type {
  AdminBroadcastsQuery,
  AdminBroadcastsResponse,
  Broadcast,
  BroadcastAudience,
  BroadcastStatus,
  CreateBroadcastRequest,
} from '@gpt/contracts';
import { paginationOf } from '@gpt/contracts';
import { AppError, conflict, notFound, type AccessClaims } from '@gpt/kit';
import { ServiceCallError } from '../clients/services';
import { broadcastsRepository, type BroadcastFigures, type BroadcastRow } from '../data/broadcasts.repository';
import type { BotDeps } from '../deps';

const DAY_MS = 24 * 60 * 60 * 1000;

type Deps = Pick<BotDeps, 'db' | 'services'>;

/**
 * The Telegram users an audience reaches now: auth's segment (accounts, balances, tariffs; never a user
 * who blocked the bot or turned broadcasts off), narrowed to chats the bot keeps, not blocked, by when
 * each user last wrote (docs/architecture.md, Calls between services).
 */
export async function recipientsOf(deps: Deps, audience: BroadcastAudience): Promise<number[]> {
  const { active_within_days: within, inactive_for_days: inactive, ...segment } = audience;
  let ids: number[];
  try {
    ids = (await deps.services.broadcastRecipients(segment)).telegram_ids;
  } catch (err) {
    if (err instanceof ServiceCallError && err.status >= 500)
      throw new AppError('Не удалось получить получателей: сервис пользователей недоступен', 'auth_unavailable', 502);
    throw err;
  }
  const lastActive = await broadcastsRepository(deps.db).lastActive(ids);
  const now = Date.now();
  return ids.filter((id) => {
    if (!lastActive.has(id)) return false;
    const idleMs = now - (lastActive.get(id)?.getTime() ?? 0);
    return (within === null || idleMs <= within * DAY_MS) && (inactive === null || idleMs >= inactive * DAY_MS);
  });
}

function toBroadcast(row: BroadcastRow, figures: BroadcastFigures): Broadcast {
  return {
    id: row.id,
    status: row.status,
    content: row.content,
    audience: row.audience,
    send_at: row.sendAt.toISOString(),
    created_by: row.createdBy,
    total: row.total,
    ...figures,
    created_at: row.createdAt.toISOString(),
    started_at: row.startedAt?.toISOString() ?? null,
    finished_at: row.finishedAt?.toISOString() ?? null,
  };
}

/** What a status change may start from, and the refusal when the broadcast is elsewhere. */
const MOVES = {
  pause: {
    from: ['scheduled', 'sending'],
    to: 'paused',
    refusal: 'Приостановить можно только запланированную или идущую рассылку',
  },
  resume: {
    from: ['paused'],
    to: 'sending',
    refusal: 'Продолжить можно только приостановленную рассылку',
  },
  cancel: {
    from: ['scheduled', 'sending', 'paused'],
    to: 'canceled',
    refusal: 'Рассылка уже закончилась или отменена',
  },
} as const satisfies Record<string, { from: BroadcastStatus[]; to: BroadcastStatus; refusal: string }>;

/** The admin's «Рассылки» (docs/bot.md, Broadcasts): history, one broadcast with its figures, creating and steering. */
export function broadcastsAdmin(deps: Deps) {
  const repository = broadcastsRepository(deps.db);

  async function one(id: number): Promise<{ data: Broadcast }> {
    const row = await repository.find(id);
    if (!row) throw notFound('Рассылка не найдена', 'broadcast_not_found');
    const figures = await repository.figures([id]);
    return { data: toBroadcast(row, figures.get(id)!) };
  }

  return {
    one,

    async list(query: AdminBroadcastsQuery): Promise<AdminBroadcastsResponse> {
      const { rows, total } = await repository.page(query.page, query.limit, query.sortOrder);
      const figures = await repository.figures(rows.map((row) => row.id));
      return {
        data: rows.map((row) => toBroadcast(row, figures.get(row.id)!)),
        pagination: paginationOf(query.page, query.limit, total),
      };
    },

    async count(audience: BroadcastAudience) {
      return { recipients: (await recipientsOf(deps, audience)).length };
    },

    /** A broadcast to send at its time (now when none is given); the sender starts it when it is due. */
    async create(body: CreateBroadcastRequest, claims: AccessClaims): Promise<{ data: Broadcast }> {
      const row = await repository.create({
        content: body.content,
        audience: body.audience,
        sendAt: body.send_at ? new Date(body.send_at) : new Date(),
        createdBy: {
          id: Number(claims.sub),
          name: claims.email ?? `#${claims.sub}`,
        },
      });
      return one(row.id);
    },

    /** Pauses (the messages at Telegram still land), resumes where it stopped, or cancels a broadcast. */
    async move(id: number, move: keyof typeof MOVES): Promise<{ data: Broadcast }> {
      const { from, to, refusal } = MOVES[move];
      const moved = move === 'resume' ? await repository.resume(id) : await repository.move(id, [...from], to);
      if (!moved) {
        await one(id);
        throw conflict(refusal, 'broadcast_state');
      }
      return one(id);
    },
  };
}
