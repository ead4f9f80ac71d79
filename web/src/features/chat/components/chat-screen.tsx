import { type ChatConversationDetail, type ChatMessage as Message } from '@gpt/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Offcanvas from 'react-bootstrap/Offcanvas';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router-dom';

import { SpinnerBlock } from '@/components/ui/spinner-block';
import { useToast } from '@/components/ui/toasts';
import { Icon } from '@/components/ui/icons';
import { paths } from '@/config/paths';
import { ApiError, errorMessage } from '@/lib/api-client';
import { useFillViewport } from '@/lib/use-fill-viewport';
import { usePageTitle } from '@/lib/use-page-title';

import { chatKey } from '../api/chat-types';
import { useCreateConversation } from '../api/create-conversation';
import { downloadConversation } from '../api/export-conversation';
import { conversationKey, useConversation } from '../api/get-conversation';
import { conversationsKey, useConversations } from '../api/get-conversations';
import { useSendMessage } from '../api/send-message';
import { useStopAnswer } from '../api/stop-answer';
import { streamingMessageOf, type LiveAnswer, useLiveAnswer } from '../use-live-answer';
import { ChatComposer } from './chat-composer';
import { ChatMessage } from './chat-message';
import { ChatSearch } from './chat-search';
import { ChatSettings } from './chat-settings';
import { ConversationList } from './conversation-list';
import './chat.css';

/** A refusal shown above the box of the conversation it came in: the server's words; «Пополнить» when credits ran out. */
interface Notice {
  conversationId: string | null;
  message: string;
  topUp: boolean;
}

const noticeOf = (conversationId: string | null, err: unknown, fallback: string): Notice => ({
  conversationId,
  message: errorMessage(err, fallback),
  topUp: err instanceof ApiError && err.status === 402,
});

/** What the conversation shows: its stored messages with the running answer's text as far as the page has it. */
function shownMessages(thread: ChatConversationDetail | undefined, live: LiveAnswer | null): Message[] {
  const messages = thread?.messages ?? [];
  if (!live) return messages;
  const stored = streamingMessageOf(thread);
  if (stored) return messages.map((message) => (message === stored ? { ...message, text: live.text } : message));
  const last = messages.at(-1);
  return [
    ...messages,
    {
      id: `answer-${live.answerId}`,
      role: 'assistant',
      text: live.text,
      model: null,
      cost: null,
      door: last?.door ?? 'web',
      createdAt: last?.createdAt ?? new Date().toISOString(),
      status: 'streaming',
    },
  ];
}

/** Near the bottom the list follows a growing answer; a reader scrolled up is left where they are. */
const FOLLOW_PX = 120;

export interface ChatScreenProps {
  /** The balance, kept in view. */
  balance: ReactNode;
  /** An answer ended: what it cost is off the balance. */
  onAnswerEnd(): void;
}

/**
 * /chat and /chat/{id}: the list of conversations (in a drawer on a phone), search, the open conversation with
 * its answer streaming in, the model, mode and instructions, and the question box (docs/product.md, The web chat).
 * Without an id the conversation the bot continues is open.
 */
export function ChatScreen({ balance, onAnswerEnd }: ChatScreenProps) {
  usePageTitle('Чат');
  const { conversationId } = useParams();
  const [searchParams] = useSearchParams();
  const hitId = searchParams.get('message');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const toast = useToast();

  const conversations = useConversations();
  const list = conversations.data ?? [];
  const openId = conversationId ?? list.find((item) => item.current)?.id ?? list[0]?.id ?? null;
  const thread = useConversation(openId);
  const create = useCreateConversation();
  const sendMessage = useSendMessage();
  const stop = useStopAnswer();

  const [drawer, setDrawer] = useState(false);
  const [query, setQuery] = useState('');
  const [notice, setNotice] = useState<Notice | null>(null);
  const shownNotice = notice?.conversationId === openId ? notice : null;

  const live = useLiveAnswer(thread.data, (end) => {
    if ('refusal' in end) setNotice({ conversationId: openId, message: end.refusal, topUp: false });
    void queryClient.invalidateQueries({ queryKey: chatKey });
    onAnswerEnd();
  });
  const messages = shownMessages(thread.data, live);
  const answering = live !== null && !live.ended;

  const page = useRef<HTMLDivElement>(null);
  useFillViewport(page);
  const scroller = useRef<HTMLDivElement>(null);
  const input = useRef<HTMLTextAreaElement>(null);
  const following = useRef(true);

  // A conversation opens at its end, a search hit at the message found (focused, marked); then the list follows
  // a growing answer while the reader is near the bottom.
  const placed = useRef<string | null>(null);
  useLayoutEffect(() => {
    const element = scroller.current;
    if (!element || !thread.data) return;
    const place = `${openId} ${hitId}`;
    if (placed.current !== place) {
      placed.current = place;
      const hit = hitId ? document.getElementById(`message-${hitId}`) : null;
      following.current = hit === null;
      if (hit) {
        hit.scrollIntoView({ block: 'center' });
        hit.focus({ preventScroll: true });
      }
    }
    if (following.current) element.scrollTop = element.scrollHeight;
  }, [thread.data, openId, hitId, messages.length, live?.text]);

  const onScroll = () => {
    const element = scroller.current;
    if (element) following.current = element.scrollHeight - element.scrollTop - element.clientHeight < FOLLOW_PX;
  };

  const open = (id: string, messageId?: string) => {
    setDrawer(false);
    navigate(paths.chatConversation(id, messageId));
  };

  const newChat = () =>
    create.mutate(undefined, {
      onSuccess: (conversation) => {
        open(conversation.id);
        input.current?.focus();
      },
      onError: (err) => toast.error('Не удалось начать новый чат', errorMessage(err, 'Попробуйте ещё раз.')),
    });

  async function send(text: string): Promise<boolean> {
    setNotice(null);
    following.current = true;
    let id = openId;
    try {
      if (!id) {
        id = (await create.mutateAsync()).id;
        navigate(paths.chatConversation(id), { replace: true });
      }
      const asked = await sendMessage.mutateAsync({ conversationId: id, text });
      await queryClient.cancelQueries({ queryKey: conversationKey(id) });
      queryClient.setQueryData<ChatConversationDetail>(
        conversationKey(id),
        (current) =>
          current && {
            ...current,
            messages: current.messages.some((message) => message.id === asked.message.id)
              ? current.messages
              : [...current.messages, asked.message],
            running: { answerId: asked.answerId },
          },
      );
      void queryClient.invalidateQueries({ queryKey: conversationsKey });
      return true;
    } catch (err) {
      setNotice(noticeOf(id, err, 'Не удалось отправить сообщение'));
      return false;
    }
  }

  const onStop = () =>
    live &&
    stop.mutate(live.answerId, { onError: (err) => setNotice(noticeOf(openId, err, 'Не удалось остановить ответ')) });

  const onExport = () =>
    openId &&
    downloadConversation(openId).catch((err: unknown) =>
      toast.error('Не удалось скачать чат', errorMessage(err, 'Попробуйте ещё раз.')),
    );

  const title = thread.data?.conversation.title || 'Новый чат';

  return (
    <div className="chat-page" ref={page}>
      <Offcanvas
        responsive="lg"
        show={drawer}
        onHide={() => setDrawer(false)}
        className="chat-sidebar"
        aria-labelledby="chat-sidebar-title"
      >
        <Offcanvas.Header closeButton closeLabel="Закрыть">
          <Offcanvas.Title id="chat-sidebar-title" as="h2" className="h5">
            Чаты
          </Offcanvas.Title>
        </Offcanvas.Header>
        <Offcanvas.Body className="chat-sidebar-body">
          <div className="p-3">
            <Button className="w-100" onClick={newChat} disabled={create.isPending}>
              <Icon name="plus" size={16} className="me-1" />
              Новый чат
            </Button>
          </div>
          <ChatSearch query={query} onQuery={setQuery} onOpenHit={(hit) => open(hit.conversationId, hit.messageId)} />
          {query === '' && (
            <nav className="chat-list-scroll" aria-label="Список чатов">
              {conversations.isPending ? (
                <SpinnerBlock />
              ) : conversations.isError ? (
                <p className="small text-danger px-3" role="alert">
                  {errorMessage(conversations.error, 'Не удалось загрузить чаты.')}
                </p>
              ) : (
                <ConversationList
                  conversations={list}
                  openId={openId}
                  onOpen={(id) => open(id)}
                  onDeleted={(id) => id === openId && navigate(paths.chat, { replace: true })}
                />
              )}
            </nav>
          )}
        </Offcanvas.Body>
      </Offcanvas>

      <section className="chat-main" aria-labelledby="chat-title">
        <div className="chat-toolbar">
          <div className="chat-toolbar-row">
            <Button variant="outline-secondary" size="sm" className="d-lg-none" onClick={() => setDrawer(true)}>
              <Icon name="menu" size={16} className="me-1" />
              Чаты
            </Button>
            <h1 id="chat-title" className="chat-title h5 mb-0">
              {title}
            </h1>
            <Button variant="outline-secondary" size="sm" onClick={onExport} disabled={!openId}>
              <Icon name="file" size={16} className="me-1" />
              Экспорт
            </Button>
          </div>
          <div className="chat-toolbar-row">
            <ChatSettings />
            <div className="chat-balance small ms-auto">{balance}</div>
          </div>
        </div>

        <div className="chat-messages" ref={scroller} onScroll={onScroll}>
          {openId && thread.isPending ? (
            <SpinnerBlock />
          ) : thread.isError ? (
            <Alert variant="danger">{errorMessage(thread.error, 'Не удалось загрузить чат.')}</Alert>
          ) : messages.length === 0 ? (
            <div className="chat-empty text-center text-body-secondary">
              <Icon name="chat" size={32} />
              <p className="mt-2 mb-0">
                Задайте вопрос — ответ появится здесь. Этот разговор можно продолжить и в боте.
              </p>
            </div>
          ) : (
            messages.map((message) => (
              <ChatMessage
                key={message.id}
                message={message}
                live={answering && message.status === 'streaming'}
                highlighted={message.id === hitId}
              />
            ))
          )}
        </div>

        {shownNotice && (
          <Alert
            variant="warning"
            className="chat-notice"
            dismissible
            onClose={() => setNotice(null)}
            closeLabel="Закрыть"
          >
            <span className="chat-notice-text">{shownNotice.message}</span>
            {shownNotice.topUp && (
              <Link to={paths.dashboard} className="btn btn-sm btn-primary ms-2">
                Пополнить
              </Link>
            )}
          </Alert>
        )}
        <ChatComposer
          ref={input}
          onSend={send}
          onStop={onStop}
          answering={answering}
          sending={sendMessage.isPending || create.isPending}
          stopping={stop.isPending}
        />
      </section>
    </div>
  );
}
