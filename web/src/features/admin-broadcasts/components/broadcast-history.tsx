import { toPlainText, type Broadcast } from '@gpt/contracts';
import { useMemo } from 'react';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import ProgressBar from 'react-bootstrap/ProgressBar';

import { DataTable, type DataColumn } from '@/components/ui/data-table';
import { ErrorBanner } from '@/components/ui/error-banner';
import { errorMessage } from '@/lib/api-client';
import { formatMoscowDateTime } from '@/lib/dates';
import { toApiListQuery } from '@/lib/list-params';
import { useListState } from '@/lib/use-list-state';

import { useAdminBroadcasts } from '../api/get-broadcasts';
import { useSteerBroadcast, type Steer } from '../api/steer-broadcast';

const LIST_DEFAULTS = {
  sort: { field: 'created_at', order: 'desc' as const },
  sortFields: ['created_at'] as const,
  filters: {},
};

const STATUS: Record<Broadcast['status'], { label: string; bg: string }> = {
  scheduled: { label: 'Запланирована', bg: 'info' },
  sending: { label: 'Идёт', bg: 'primary' },
  paused: { label: 'На паузе', bg: 'warning' },
  canceled: { label: 'Отменена', bg: 'secondary' },
  done: { label: 'Завершена', bg: 'success' },
};

const STEERS: { steer: Steer; label: string; when: Broadcast['status'][]; variant: string }[] = [
  { steer: 'pause', label: 'Пауза', when: ['scheduled', 'sending'], variant: 'outline-secondary' },
  { steer: 'resume', label: 'Продолжить', when: ['paused'], variant: 'outline-primary' },
  { steer: 'cancel', label: 'Отменить', when: ['scheduled', 'sending', 'paused'], variant: 'outline-danger' },
];

const LOAD_FAILED = 'Не удалось загрузить рассылки.';

/** The history of broadcasts with their live figures (read again every 2 s while one runs) and pause, resume, cancel. */
export function BroadcastHistory() {
  const list = useListState(LIST_DEFAULTS);
  const broadcasts = useAdminBroadcasts(toApiListQuery(list.state));
  const steer = useSteerBroadcast();

  const columns = useMemo<DataColumn<Broadcast>[]>(
    () => [
      {
        id: 'created_at',
        header: 'Создана',
        cell: (b) => (
          <>
            <div className="text-nowrap">{formatMoscowDateTime(b.created_at)}</div>
            <div className="small text-body-secondary">{b.created_by.name}</div>
          </>
        ),
      },
      {
        id: 'status',
        header: 'Статус',
        sortable: false,
        cell: (b) => (
          <>
            <Badge bg={STATUS[b.status].bg}>{STATUS[b.status].label}</Badge>
            {b.status === 'scheduled' && <div className="small text-nowrap">{formatMoscowDateTime(b.send_at)} МСК</div>}
            <div className="d-flex gap-1 flex-wrap mt-1">
              {STEERS.filter((s) => s.when.includes(b.status)).map((s) => (
                <Button
                  key={s.steer}
                  size="sm"
                  variant={s.variant}
                  disabled={steer.isPending}
                  onClick={() => steer.mutate({ id: b.id, steer: s.steer })}
                >
                  {s.label}
                </Button>
              ))}
            </div>
          </>
        ),
      },
      {
        id: 'text',
        header: 'Текст',
        sortable: false,
        cell: (b) => <span className="broadcast-history-text">{toPlainText(b.content.text)}</span>,
      },
      { id: 'progress', header: 'Ход', sortable: false, cell: (b) => <BroadcastProgress broadcast={b} /> },
    ],
    [steer],
  );

  const failure = broadcasts.isError
    ? errorMessage(broadcasts.error, LOAD_FAILED)
    : steer.isError
      ? errorMessage(steer.error, 'Не удалось изменить рассылку.')
      : null;
  return (
    <>
      <ErrorBanner message={failure} />
      <DataTable
        {...list.table}
        columns={columns}
        rows={broadcasts.data?.data}
        rowCount={broadcasts.data?.pagination.total ?? 0}
        getRowId={(b) => b.id}
        loading={broadcasts.isFetching}
        emptyText="Рассылок ещё не было"
        label="История рассылок"
      />
    </>
  );
}

/** Sent of all, with who blocked the bot, the errors, what is left and the rate while it runs. */
function BroadcastProgress({ broadcast: b }: { broadcast: Broadcast }) {
  if (b.total === null) return <span className="text-body-secondary">Получатели — при старте</span>;
  const done = b.sent + b.blocked + b.failed;
  return (
    <div className="broadcast-progress">
      <ProgressBar
        now={b.total === 0 ? 100 : (done / b.total) * 100}
        variant={b.status === 'done' ? 'success' : undefined}
        aria-label={`Отправлено ${b.sent} из ${b.total}`}
        className="mb-1"
      />
      <div className="small text-nowrap">
        Отправлено <strong>{b.sent.toLocaleString('ru-RU')}</strong> из {b.total.toLocaleString('ru-RU')}
        {b.status === 'sending' && <> · {b.rate.toLocaleString('ru-RU')} в секунду</>}
      </div>
      <div className="small text-body-secondary text-nowrap">
        Заблокировали {b.blocked} · ошибки {b.failed} · осталось {b.left}
      </div>
    </div>
  );
}
