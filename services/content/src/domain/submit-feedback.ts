import type {
  AdminSupportRequestsQuery,
  AdminSupportRequestsResponse,
  FeedbackRequest,
  SupportChannel,
  SupportRequest,
} from '@gpt/contracts';
import { conflict, notFound } from '@gpt/kit';
import type { ContentDeps } from '../deps';
import { feedbackRepository, type SupportRequestRecord } from '../data/feedback.repository';

/** The contact form: the message is stored as a support request, the signed-in sender's when `userId` is set. */
export async function submitFeedback(deps: ContentDeps, input: FeedbackRequest, userId: number | null): Promise<void> {
  await feedbackRepository(deps.db).insert(input, userId);
}

/** Where an answer goes: the bot when the sender's account has Telegram linked, else an e-mail, else nowhere. */
function answerChannel(request: SupportRequestRecord): { via: SupportChannel; email: string | null } | null {
  if (request.userTelegramId !== null) return { via: 'telegram', email: null };
  const email = request.email ?? request.userEmail;
  return email ? { via: 'email', email } : null;
}

function toSupportRequest(request: SupportRequestRecord): SupportRequest {
  return {
    id: request.id,
    telegram: request.telegram,
    email: request.email,
    subject: request.subject,
    message: request.message,
    user_id: request.userId,
    user_email: request.userEmail,
    user_name: request.userName,
    status: request.status,
    answer: request.answer,
    answered_via: request.answeredVia,
    answered_at: request.answeredAt?.toISOString() ?? null,
    answer_channel: answerChannel(request)?.via ?? null,
    created_at: request.createdAt.toISOString(),
  };
}

const supportErrors = {
  notFound: () => notFound('Обращение не найдено', 'support_request_not_found'),
  noChannel: (telegram: string) =>
    conflict(
      `Ответить некуда: Telegram не связан с аккаунтом и e-mail не указан. Напишите человеку сами: ${telegram}`,
      'support_no_channel',
    ),
};

/** The admin's «Обращения»: the list, the menu's count, marking done and answering. */
export function manageSupportRequests(deps: ContentDeps) {
  const requests = feedbackRepository(deps.db);
  const found = async (id: number): Promise<SupportRequestRecord> => {
    const request = await requests.find(id);
    if (!request) throw supportErrors.notFound();
    return request;
  };
  return {
    async list(query: AdminSupportRequestsQuery): Promise<AdminSupportRequestsResponse> {
      const [{ rows, total }, unread] = await Promise.all([requests.page(query), requests.unread()]);
      return { data: rows.map(toSupportRequest), total, unread };
    },

    unread: async () => ({ unread: await requests.unread() }),

    async markDone(id: number) {
      await found(id);
      await requests.markDone(id);
      return { success: true as const, support_request: toSupportRequest(await found(id)) };
    },

    /**
     * Answers a request and marks it done; `support.answered` takes the answer to the bot (a linked
     * user) or to auth's mail (an e-mail), in the same transaction as the answer is saved.
     */
    async answer(id: number, text: string, adminId: number) {
      await deps.bus.transaction(async (trx) => {
        if (!(await feedbackRepository(trx).lock(id))) throw supportErrors.notFound();
        const request = (await feedbackRepository(trx).find(id)) as SupportRequestRecord;
        const channel = answerChannel(request);
        if (!channel) throw supportErrors.noChannel(request.telegram);
        await feedbackRepository(trx).saveAnswer(id, { text, via: channel.via, adminId });
        await deps.bus.publish(trx, 'support.answered', {
          request_id: id,
          user_id: request.userId,
          channel: channel.via,
          email: channel.email,
          subject: request.subject,
          answer: text,
          answered_at: new Date().toISOString(),
        });
      });
      return { success: true as const, support_request: toSupportRequest(await found(id)) };
    },

    mine: async (userId: number) => ({ requests: await requests.mine(userId) }),
  };
}
