import { CHAT_DOOR_LABELS, toTelegramHtml, type HistoryMessage } from '@gpt/contracts';
import { useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';

import { StatusBadge } from '@/components/ui/status-badge';
import { DetailList, ViewDialog } from '@/components/ui/view-dialog';
import { errorMessage } from '@/lib/api-client';
import { formatDateTime } from '@/lib/dates';
import { exactUsd, formatCredits, formatUsd } from '@/lib/money';

import { useHistoryMessage, useNeighbour } from '../api/get-history-message';
import { messageStatusBadge } from '../status';
import { ImagePreviewDialog } from './image-preview-dialog';
import { MessageAuthor } from './message-author';
import { MessageThumbnail } from './message-thumbnail';

function MessageDetails({ message, onZoom }: { message: HistoryMessage; onZoom: (src: string) => void }) {
  return (
    <>
      {message.status === 'error' && (
        <Alert variant="danger" className="py-2">
          {message.error_message || 'Ошибка'}
        </Alert>
      )}
      <DetailList
        className="history-detail"
        items={[
          { label: 'ID', value: message.id },
          { label: 'Пользователь', value: <MessageAuthor message={message} /> },
          { label: 'Модель', value: <code className="model-name">{message.model}</code> },
          { label: 'Режим', value: message.mode },
          { label: 'Откуда', value: CHAT_DOOR_LABELS[message.door] },
          { label: 'Статус', value: <StatusBadge value={message.status} {...messageStatusBadge} /> },
          { label: 'Дата', value: formatDateTime(message.created_at) },
          {
            label: 'Сообщение пользователя',
            value: (
              <>
                <div className="history-full-text">{message.user_message}</div>
                {message.image_path && (
                  <div className="mt-2">
                    <MessageThumbnail src={message.image_path} size={160} onOpen={() => onZoom(message.image_path!)} />
                  </div>
                )}
              </>
            ),
          },
          {
            label: 'Ответ бота',
            // As the user saw it in Telegram: the bot's own conversion, which escapes the model's text and
            // emits only Telegram's few tags (links to http(s) and tg: only).
            value: message.bot_response && (
              <div
                className="history-full-text history-bot-answer"
                data-testid="bot-answer"
                dangerouslySetInnerHTML={{ __html: toTelegramHtml(message.bot_response) }}
              />
            ),
          },
          { label: 'Токены ввода', value: formatCredits(message.input_tokens) },
          { label: 'Токены вывода', value: formatCredits(message.output_tokens) },
          {
            label: 'Стоимость ввода',
            value: <span title={exactUsd(message.input_cost)}>{formatUsd(message.input_cost)}</span>,
          },
          {
            label: 'Стоимость вывода',
            value: <span title={exactUsd(message.output_cost)}>{formatUsd(message.output_cost)}</span>,
          },
          {
            label: 'Распознавание голоса',
            value: `${formatCredits(message.audio_seconds)} с · ${formatUsd(message.transcription_cost)}`,
            hidden: message.audio_seconds === 0,
          },
          {
            label: 'Озвучивание ответа',
            value: `${formatCredits(message.speech_characters)} симв. · ${formatUsd(message.speech_cost)}`,
            hidden: message.speech_characters === 0,
          },
          {
            label: 'Общая стоимость',
            value: <strong title={exactUsd(message.total_cost)}>{formatUsd(message.total_cost)}</strong>,
          },
          { label: 'Кредиты', value: formatCredits(message.cost) },
          { label: 'Ошибка', value: message.error_message, hidden: !message.error_message },
        ]}
      />
    </>
  );
}

/**
 * A message in full (docs/product.md, Screens): previous and next in the list's default order, within the user when
 * the list is filtered by one (disabled when there is none), the image's zoom dialog and Close.
 */
export function HistoryDetailDialog({
  id,
  userId,
  onNavigate,
  onHide,
}: {
  id: number | null;
  userId?: string;
  onNavigate: (id: number) => void;
  onHide: () => void;
}) {
  const message = useHistoryMessage(id);
  const prev = useNeighbour('prev', id, userId);
  const next = useNeighbour('next', id, userId);
  const [zoomed, setZoomed] = useState<string | null>(null);

  const problem = message.isError
    ? errorMessage(message.error, 'Ошибка загрузки сообщения.')
    : prev.isError
      ? errorMessage(prev.error, 'Ошибка загрузки предыдущего сообщения.')
      : next.isError
        ? errorMessage(next.error, 'Ошибка загрузки следующего сообщения.')
        : null;

  return (
    <>
      <ViewDialog
        show={id !== null}
        title="Сообщение"
        onHide={onHide}
        loading={message.isPending && id !== null}
        error={problem}
        width="model"
        footer={
          <div className="me-auto d-flex gap-2">
            <Button
              variant="outline-primary"
              disabled={!prev.data}
              aria-busy={prev.isFetching}
              onClick={() => prev.data && onNavigate(prev.data.id)}
            >
              ← Предыдущее
            </Button>
            <Button
              variant="outline-primary"
              disabled={!next.data}
              aria-busy={next.isFetching}
              onClick={() => next.data && onNavigate(next.data.id)}
            >
              Следующее →
            </Button>
          </div>
        }
      >
        {message.data && <MessageDetails message={message.data} onZoom={setZoomed} />}
      </ViewDialog>
      <ImagePreviewDialog src={zoomed} onHide={() => setZoomed(null)} />
    </>
  );
}
