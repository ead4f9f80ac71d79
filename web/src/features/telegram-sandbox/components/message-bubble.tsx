import type { SandboxMessage } from '@gpt/contracts';
import Button from 'react-bootstrap/Button';

import { Icon } from '@/components/ui/icons';

import { MessageText } from './message-text';

const time = (date: number) =>
  new Date(date * 1000).toLocaleTimeString('ru-RU', { hour: '2-digit', minute: '2-digit' });

const stars = (amount: number) => `⭐ ${amount.toLocaleString('ru-RU')}`;

const isWebUrl = (url: string) => /^https?:\/\//i.test(url);

export interface MessageBubbleProps {
  message: SandboxMessage;
  onPress(messageId: number, data: string): void;
  /** Pays the message's invoice (Telegram's own pay button above its inline keyboard). */
  onPay(messageId: number): void;
  pressing: boolean;
}

/** One message as Telegram draws it: a bubble with photo, document, text, time, and its inline keyboard below. */
export function MessageBubble({ message, onPress, onPay, pressing }: MessageBubbleProps) {
  const mine = message.from === 'user';
  return (
    <div className={`tg-row ${mine ? 'tg-row-user' : 'tg-row-bot'}`} data-testid="tg-message" data-from={message.from}>
      <div className="tg-message">
        <div className={`tg-bubble ${mine ? 'tg-bubble-user' : 'tg-bubble-bot'}`}>
          {message.photo && (
            <a href={message.photo.url} target="_blank" rel="noopener noreferrer">
              <img className="tg-photo" src={message.photo.url} alt="Фото" />
            </a>
          )}
          {message.document && (
            <a className="tg-document" href={message.document.url} download={message.document.file_name}>
              <Icon name="file" size={28} />
              <span className="text-break">{message.document.file_name}</span>
            </a>
          )}
          {message.invoice && (
            <div className="tg-invoice" data-testid="tg-invoice">
              <div className="fw-semibold">{message.invoice.title}</div>
              <div className="small">{message.invoice.description}</div>
              <div className="fw-semibold mt-1">{stars(message.invoice.total_amount)}</div>
            </div>
          )}
          {message.payment && <div>✅ Вы оплатили {stars(message.payment.total_amount)}</div>}
          {message.voice && (
            <div className="tg-voice">
              <audio controls preload="metadata" src={message.voice.url} aria-label="Голосовое сообщение" />
              <span className="tg-meta">{message.voice.duration} с</span>
            </div>
          )}
          {message.text && <MessageText text={message.text} entities={message.entities} />}
          <div className="tg-meta">
            {message.edited && 'изм. '}
            {time(message.date)}
          </div>
        </div>
        {message.invoice && (
          <div className="tg-keyboard">
            <div className="tg-keyboard-row">
              <Button
                className="tg-button"
                variant="light"
                size="sm"
                disabled={pressing}
                onClick={() => onPay(message.message_id)}
              >
                Оплатить {stars(message.invoice.total_amount)}
              </Button>
            </div>
          </div>
        )}
        {message.buttons.length > 0 && (
          <div className="tg-keyboard">
            {message.buttons.map((row, rowIndex) => (
              <div className="tg-keyboard-row" key={rowIndex}>
                {row.map((button, buttonIndex) =>
                  button.url !== undefined ? (
                    <Button
                      key={buttonIndex}
                      className="tg-button"
                      variant="light"
                      size="sm"
                      href={isWebUrl(button.url) ? button.url : undefined}
                      disabled={!isWebUrl(button.url)}
                      target="_blank"
                      rel="noopener noreferrer"
                      title={button.url}
                    >
                      {button.text} ↗
                    </Button>
                  ) : (
                    <Button
                      key={buttonIndex}
                      className="tg-button"
                      variant="light"
                      size="sm"
                      disabled={pressing || button.callback_data === undefined}
                      onClick={() => button.callback_data && onPress(message.message_id, button.callback_data)}
                    >
                      {button.text}
                    </Button>
                  ),
                )}
              </div>
            ))}
          </div>
        )}
      </div>
    </div>
  );
}
