import type { SandboxSession } from '@gpt/contracts';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Spinner from 'react-bootstrap/Spinner';

import { SpinnerBlock } from '@/components/ui/spinner-block';
import { errorMessage } from '@/lib/api-client';
import { telegramBotInfoQuery } from '@/lib/use-bot-url';
import { useFillViewport } from '@/lib/use-fill-viewport';

import { useSandboxChat } from '../api/get-chat';
import { usePaySandboxInvoice } from '../api/pay-invoice';
import { usePressSandboxButton } from '../api/press-button';
import { useSendSandboxMessage } from '../api/send-message';
import { useNewSandboxUser, useSandboxSession } from '../api/start-session';
import { useUploadSandboxFile } from '../api/upload-file';
import { Composer, type Attachment } from './composer';
import { MessageBubble } from './message-bubble';

/** The sandbox page: the chat while the bot runs on its local sandbox, a short note otherwise. */
export function TelegramSandbox() {
  const info = useQuery(telegramBotInfoQuery);
  if (info.isPending) return <SpinnerBlock />;
  if (!info.data?.sandbox) {
    return (
      <Alert variant="secondary">
        Песочница выключена: бот работает с настоящим Telegram.{' '}
        {info.data?.url && (
          <a href={info.data.url} target="_blank" rel="noopener noreferrer">
            Открыть бота в Telegram
          </a>
        )}
      </Alert>
    );
  }
  return <SandboxSessionGate />;
}

/** The user this browser plays, from the server (kept behind an HttpOnly cookie). */
function SandboxSessionGate() {
  const session = useSandboxSession();
  if (session.isPending) return <SpinnerBlock />;
  if (session.isError) {
    return (
      <Alert variant="danger">{errorMessage(session.error, 'Не удалось открыть песочницу, обновите страницу.')}</Alert>
    );
  }
  return <SandboxChatWindow user={session.data} />;
}

/** Telegram's deep-link payloads: up to 64 letters, digits, _ and -. */
const START_PAYLOAD = /^[\w-]{1,64}$/;

/** A chat window drawn like Telegram's, played by the session's pseudo user. */
function SandboxChatWindow({ user }: { user: SandboxSession }) {
  // As t.me/<bot>?start=… does, «Начать» sends the link's payload with /start (a friend's referral code).
  const start = useSearchParams()[0].get('start') ?? '';
  const startCommand = START_PAYLOAD.test(start) ? `/start ${start}` : '/start';
  const { chat, failed } = useSandboxChat(user.user_id);
  const newUser = useNewSandboxUser();
  const send = useSendSandboxMessage();
  const upload = useUploadSandboxFile();
  const press = usePressSandboxButton();
  const pay = usePaySandboxInvoice();
  const [error, setError] = useState<string | null>(null);
  const scroller = useRef<HTMLDivElement>(null);
  const chatWindow = useRef<HTMLElement>(null);
  useFillViewport(chatWindow);

  useEffect(() => {
    const element = scroller.current;
    element?.scrollTo({ top: element.scrollHeight });
  }, [chat?.version]);

  const failWith = (fallback: string) => (err: unknown) => setError(errorMessage(err, fallback));
  /** What the user sends goes out one at a time, in the order it was sent, however fast it is typed. */
  const outbox = useRef(Promise.resolve());
  const enqueue = (deliver: () => Promise<unknown>, fallback: string) => {
    setError(null);
    outbox.current = outbox.current.then(deliver).then(() => undefined, failWith(fallback));
  };
  const sendText = (text: string) => enqueue(() => send.mutateAsync({ text }), 'Сообщение не отправлено');
  const sendFile = (attachment: Attachment, caption: string) =>
    enqueue(() => upload.mutateAsync({ ...attachment, ...(caption ? { caption } : {}) }), 'Файл не отправлен');
  const pressButton = (messageId: number, data: string) => {
    setError(null);
    press.mutate({ message_id: messageId, data }, { onError: failWith('Кнопка не сработала') });
  };
  // Telegram shows the bot's refusal of a pre-checkout to the payer; so does the sandbox.
  const payInvoice = (messageId: number) => {
    setError(null);
    pay.mutate(
      { message_id: messageId },
      {
        onSuccess: (answer) => {
          if (!answer.ok) setError(answer.error_message ?? 'Оплата отклонена ботом');
        },
        onError: failWith('Оплата не прошла'),
      },
    );
  };

  return (
    <>
      <section className="tg-window" aria-label="Чат с ботом" ref={chatWindow}>
        <header className="tg-header">
          <div className="tg-avatar" aria-hidden>
            🤖
          </div>
          <div className="flex-grow-1 min-w-0">
            <div className="fw-semibold text-truncate">{chat?.bot.first_name ?? 'Бот'}</div>
            <div className="small text-body-secondary text-truncate">
              {chat ? `@${chat.bot.username} · ` : ''}вы — {user.first_name} (id {user.user_id})
            </div>
          </div>
          <Button
            variant="outline-secondary"
            size="sm"
            title="Начать заново от имени нового пользователя"
            disabled={newUser.isPending}
            onClick={() => {
              setError(null);
              newUser.mutate(undefined, { onError: failWith('Новый пользователь не создан') });
            }}
          >
            Новый пользователь
          </Button>
        </header>
        <div className="tg-messages" ref={scroller} aria-live="polite">
          {!chat ? (
            <div className="tg-empty">
              <Spinner animation="border" role="status" aria-label="Загрузка" />
            </div>
          ) : chat.messages.length === 0 ? (
            <div className="tg-empty">
              <p className="mb-3">Здесь будет ваша переписка с ботом.</p>
              <Button onClick={() => sendText(startCommand)} disabled={send.isPending}>
                Начать
              </Button>
            </div>
          ) : (
            chat.messages.map((message) => (
              <MessageBubble
                key={message.message_id}
                message={message}
                pressing={press.isPending || pay.isPending}
                onPress={pressButton}
                onPay={payInvoice}
              />
            ))
          )}
        </div>
        {failed && <div className="tg-status">Нет связи с ботом, пробуем снова…</div>}
        {error && (
          <Alert variant="danger" className="tg-error mb-0" dismissible onClose={() => setError(null)}>
            {error}
          </Alert>
        )}
        <Composer onSend={sendText} onAttach={sendFile} onError={setError} />
      </section>
      {/* Under the chat, so on a phone the conversation has the screen. */}
      <Alert variant="warning" className="small mt-3 mb-0">
        <strong>Это локальная тестовая песочница, а не Telegram.</strong> Токен бота не задан, поэтому бот разговаривает
        с этой страницей: сообщения, кнопки, фото, документы и оплата звёздами (понарошку) проходят через тот же код,
        что и в Telegram. Переписка хранится в памяти сервиса бота и пропадает при его перезапуске.
      </Alert>
    </>
  );
}
