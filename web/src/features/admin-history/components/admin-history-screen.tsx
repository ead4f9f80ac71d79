import {
  ADMIN_HISTORY_SORT_FIELDS,
  CHAT_DOOR_LABELS,
  toPlainText,
  type HistoryExportFormat,
  type HistoryMessage,
} from '@gpt/contracts';
import { useEffect, useMemo, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Spinner from 'react-bootstrap/Spinner';

import { actionsColumn, DataTable, rowAction, type DataColumn } from '@/components/ui/data-table';
import { ErrorBanner } from '@/components/ui/error-banner';
import { Icon } from '@/components/ui/icons';
import { StatusBadge } from '@/components/ui/status-badge';
import { errorMessage } from '@/lib/api-client';
import { formatDateTime } from '@/lib/dates';
import { toApiListQuery } from '@/lib/list-params';
import { exactUsd, formatCredits, formatUsd } from '@/lib/money';
import { useListState } from '@/lib/use-list-state';

import { downloadHistoryCsv } from '../api/export-history';
import { useHistory } from '../api/get-history';
import { messageStatusBadge } from '../status';
import { HistoryDetailDialog } from './history-detail-dialog';
import { HistoryFilters } from './history-filters';
import { ImagePreviewDialog } from './image-preview-dialog';
import { MessageAuthor } from './message-author';
import { MessageThumbnail } from './message-thumbnail';

const LIST_DEFAULTS = {
  sort: { field: 'created_at', order: 'desc' as const },
  filters: { userId: '', username: '', message: '' },
  sortFields: ADMIN_HISTORY_SORT_FIELDS,
};

/** The message history (docs/product.md, Screens): filters, the server-driven table, image previews, the detail with prev / next, CSV export. */
export function AdminHistoryScreen() {
  const list = useListState(LIST_DEFAULTS);
  const query = toApiListQuery(list.state, { limitKey: 'pageSize' });
  const history = useHistory(query);
  const [opened, setOpened] = useState<number | null>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const [exporting, setExporting] = useState<HistoryExportFormat | null>(null);
  const [exportError, setExportError] = useState<string | null>(null);

  // docs/product.md, Errors: a failed history load is logged (and the screen's banner shows it, Screens).
  useEffect(() => {
    if (history.isError) console.error('history list failed to load', history.error);
  }, [history.isError, history.error]);

  const columns = useMemo<DataColumn<HistoryMessage>[]>(
    () => [
      {
        id: 'username',
        header: 'Пользователь',
        cell: (m) => <MessageAuthor message={m} />,
        className: 'data-table-person',
      },
      {
        id: 'message',
        header: 'Сообщение',
        sortable: false,
        cell: (m) => (
          <div className="d-flex gap-2 align-items-start">
            {m.image_path && <MessageThumbnail src={m.image_path} onOpen={() => setPreview(m.image_path)} />}
            <div>
              <span className="history-text">{m.message}</span>
              {m.mode && <div className="small text-body-secondary">Режим: {m.mode}</div>}
              <div className="small text-body-secondary">Откуда: {CHAT_DOOR_LABELS[m.door]}</div>
            </div>
          </div>
        ),
      },
      {
        id: 'bot_response',
        header: 'Ответ бота',
        sortable: false,
        // Narrower than the sidebar layout the answer (also in the detail dialog) gives way, so the cost and the
        // date stay in view beside the actions.
        className: 'd-none d-lg-table-cell',
        cell: (m) => (
          <span className="history-text text-body-secondary">{m.bot_response && toPlainText(m.bot_response)}</span>
        ),
      },
      { id: 'status', header: 'Статус', cell: (m) => <StatusBadge value={m.status} {...messageStatusBadge} /> },
      {
        id: 'cost',
        header: 'Стоимость',
        className: 'text-end text-nowrap',
        cell: (m) => (
          <>
            <div>{formatCredits(m.cost)} кр.</div>
            <div className="small text-body-secondary" title={exactUsd(m.total_cost)}>
              {formatUsd(m.total_cost)}
            </div>
          </>
        ),
      },
      { id: 'created_at', header: 'Дата', cell: (m) => formatDateTime(m.created_at) },
      actionsColumn((m) => [rowAction.view(() => setOpened(m.id))]),
    ],
    [],
  );

  async function exportCsv(format: HistoryExportFormat) {
    setExporting(format);
    setExportError(null);
    const { page: _page, pageSize: _pageSize, ...filtersAndSort } = query;
    try {
      await downloadHistoryCsv({ ...filtersAndSort, format });
    } catch (err) {
      setExportError(errorMessage(err, 'Ошибка выгрузки истории.'));
    } finally {
      setExporting(null);
    }
  }

  const exportButton = (format: HistoryExportFormat, label: string, title: string) => (
    <Button
      variant="outline-primary"
      onClick={() => void exportCsv(format)}
      disabled={exporting !== null}
      title={title}
    >
      {exporting === format ? (
        <Spinner animation="border" size="sm" className="me-2" aria-hidden />
      ) : (
        <Icon name="file" size={16} className="me-1" />
      )}
      {label}
    </Button>
  );

  return (
    <>
      <ErrorBanner message={history.isError ? errorMessage(history.error, 'Ошибка загрузки истории.') : null} />
      <ErrorBanner message={exportError} onClose={() => setExportError(null)} />
      <HistoryFilters
        applied={list.state.filters}
        onChange={(next) => list.setFilters(next, { replace: true })}
        onReset={list.resetFilters}
      />
      <div className="d-flex flex-wrap justify-content-end gap-2 mb-3">
        {exportButton('csv', 'Экспорт CSV', 'Запятые между полями, точки в числах, время по Гринвичу')}
        {exportButton(
          'excel',
          'Экспорт для Excel',
          'Открывается в русском Excel: «;», десятичные запятые, московское время',
        )}
      </div>
      <DataTable
        {...list.table}
        columns={columns}
        rows={history.data?.history}
        rowCount={history.data?.total ?? 0}
        getRowId={(m) => m.id}
        loading={history.isFetching}
        emptyText="Сообщения не найдены"
        label="История сообщений"
      />
      <HistoryDetailDialog
        id={opened}
        userId={list.state.filters.userId.trim() || undefined}
        onNavigate={setOpened}
        onHide={() => setOpened(null)}
      />
      <ImagePreviewDialog src={preview} onHide={() => setPreview(null)} />
    </>
  );
}
