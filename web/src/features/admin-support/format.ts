import type { SupportRequest } from '@gpt/contracts';

export const SUPPORT_STATUS_LABELS = { new: 'Новое', done: 'Решено' } as const;
export const SUPPORT_STATUS_VARIANTS = { new: 'warning', done: 'success' } as const;

/** Who wrote: the account's name and e-mail when signed in, and the contact they left. */
export function senderOf(request: SupportRequest): string {
  const account = [request.user_name, request.user_email].filter(Boolean).join(', ');
  return account ? `${account} · ${request.telegram}` : request.telegram;
}

/** Where an answer goes, in the admin's words. */
export function answerRoute(request: SupportRequest): string {
  if (request.answer_channel === 'telegram') return 'в Telegram: бот пришлёт ответ пользователю';
  if (request.answer_channel === 'email') return `на e-mail ${request.email ?? request.user_email ?? ''}`;
  return `некуда: Telegram не связан, e-mail не указан. Напишите сами: ${request.telegram}`;
}
