import { CHAT_MESSAGE_MAX_CHARS } from '@gpt/contracts';
import { forwardRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Spinner from 'react-bootstrap/Spinner';

import { Icon } from '@/components/ui/icons';

export interface ChatComposerProps {
  /** Resolves true when the question was taken (the box is then cleared). */
  onSend(text: string): Promise<boolean>;
  onStop(): void;
  /** An answer is being written: «Остановить» instead of «Отправить». */
  answering: boolean;
  sending: boolean;
  stopping: boolean;
}

/** The question box: Enter sends, Shift+Enter breaks the line; «Остановить» while an answer is written. */
export const ChatComposer = forwardRef<HTMLTextAreaElement, ChatComposerProps>(function ChatComposer(
  { onSend, onStop, answering, sending, stopping },
  ref,
) {
  const [text, setText] = useState('');
  const empty = text.trim() === '';

  const send = async (event?: FormEvent) => {
    event?.preventDefault();
    if (empty || sending || answering) return;
    if (await onSend(text.trim())) setText('');
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) void send(event);
  };

  return (
    <Form className="chat-composer" onSubmit={(event) => void send(event)}>
      <Form.Label htmlFor="chat-input" className="visually-hidden">
        Сообщение
      </Form.Label>
      <Form.Control
        ref={ref}
        id="chat-input"
        as="textarea"
        rows={2}
        className="chat-input"
        placeholder="Спросите что-нибудь…"
        aria-describedby="chat-input-hint"
        maxLength={CHAT_MESSAGE_MAX_CHARS}
        value={text}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={onKeyDown}
      />
      <div id="chat-input-hint" className="chat-input-hint small text-body-secondary">
        Enter — отправить, Shift+Enter — новая строка
      </div>
      <div className="chat-composer-actions">
        {answering ? (
          <Button variant="outline-danger" onClick={onStop} disabled={stopping}>
            {stopping ? (
              <Spinner size="sm" className="me-1" aria-hidden />
            ) : (
              <Icon name="cross" size={16} className="me-1" />
            )}
            Остановить
          </Button>
        ) : (
          <Button type="submit" disabled={empty || sending}>
            {sending ? (
              <Spinner size="sm" className="me-1" aria-hidden />
            ) : (
              <Icon name="send" size={16} className="me-1" />
            )}
            Отправить
          </Button>
        )}
      </div>
    </Form>
  );
});
