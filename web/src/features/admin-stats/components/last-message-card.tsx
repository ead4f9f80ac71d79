import Card from 'react-bootstrap/Card';

import { formatDateTime } from '@/lib/dates';

import type { LastMessage } from '../api/get-admin-stats';
import { DASH, exactUsdTotal, formatUsd } from '../format';

/** The newest recorded message; dashes until loaded, after a failure, or when there is none yet. */
export function LastMessageCard({ message }: { message: LastMessage | null | undefined }) {
  const rows = [
    { stat: 'username', label: 'Пользователь', value: message?.username },
    { stat: 'created_at', label: 'Дата', value: formatDateTime(message?.created_at) },
    { stat: 'model', label: 'Модель', value: message && <span className="model-name">{message.model}</span> },
    {
      stat: 'total_cost',
      label: 'Стоимость',
      value: message ? formatUsd(message.total_cost) : DASH,
      exact: exactUsdTotal(message?.total_cost),
    },
    { stat: 'user_message', label: 'Сообщение', value: message?.user_message, long: true },
    { stat: 'bot_response', label: 'Ответ', value: message?.bot_response, long: true },
  ];
  return (
    <Card className="stat-tile h-100" role="group" aria-label="Последнее сообщение">
      <Card.Body>
        <div className="stat-label mb-3">Последнее сообщение</div>
        <dl className="info-list mb-0">
          {rows.map((row) => (
            <div className="info-item" key={row.stat}>
              <dt>{row.label}</dt>
              <dd
                className={row.long ? 'text-break last-message-text' : 'text-break'}
                data-stat={`lastMessage.${row.stat}`}
                title={row.exact}
              >
                {row.value || DASH}
              </dd>
            </div>
          ))}
        </dl>
      </Card.Body>
    </Card>
  );
}
