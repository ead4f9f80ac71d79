import { type ChatMessage as Message } from '@gpt/contracts';
import Badge from 'react-bootstrap/Badge';

import { formatDateTime, pluralRu } from '@/lib/dates';
import { formatCredits } from '@/lib/money';

import { MarkdownText } from './markdown-text';

const doorLabel = { telegram: 'Telegram', web: 'сайт' } as const;
const endLabel: Partial<Record<Message['status'], string>> = {
  stopped: 'Ответ остановлен',
  failed: 'Ответ не получен',
};

export interface ChatMessageProps {
  message: Message;
  /** The answer is being written: its text grows, screen readers hear it when it is whole. */
  live?: boolean;
  highlighted?: boolean;
}

/** One message: who and through which door, the model and its cost, the text (an answer as Markdown). */
export function ChatMessage({ message, live = false, highlighted = false }: ChatMessageProps) {
  const mine = message.role === 'user';
  return (
    <article
      id={`message-${message.id}`}
      tabIndex={-1}
      className={`chat-message ${mine ? 'chat-message-user' : 'chat-message-assistant'} ${highlighted ? 'chat-message-hit' : ''}`}
      data-role={message.role}
      data-status={live ? 'streaming' : message.status}
      aria-label={mine ? 'Ваш вопрос' : 'Ответ'}
    >
      <div className="chat-message-meta small text-body-secondary">
        <span className="fw-semibold text-body">{mine ? 'Вы' : 'Ответ'}</span>
        <Badge bg="light" text="dark" className="border" title="Откуда сообщение">
          {doorLabel[message.door]}
        </Badge>
        {message.model && <span className="chat-model">{message.model}</span>}
        <time dateTime={message.createdAt}>{formatDateTime(message.createdAt)}</time>
        {message.cost !== null && message.cost > 0 && (
          <span>
            {formatCredits(message.cost)} {pluralRu(message.cost, ['кредит', 'кредита', 'кредитов'])}
          </span>
        )}
      </div>
      <div className="chat-message-body" aria-live={live ? 'polite' : undefined} aria-busy={live || undefined}>
        {mine ? <p className="chat-plain mb-0">{message.text}</p> : <MarkdownText text={message.text} />}
        {live && <span className="chat-cursor" aria-hidden />}
        {!live && endLabel[message.status] && (
          <div className="small text-body-secondary fst-italic mt-1">{endLabel[message.status]}</div>
        )}
      </div>
    </article>
  );
}
