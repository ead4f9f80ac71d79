import type { AuditEntry } from '@gpt/contracts';
import { useMemo, useState } from 'react';
import Alert from 'react-bootstrap/Alert';

import { BusyButton } from '@/components/ui/busy-button';
import { actionsColumn, DataTable, rowAction, type DataColumn } from '@/components/ui/data-table';
import { EmailText } from '@/components/ui/email-text';
import { errorMessage } from '@/lib/api-client';
import { formatDateTime } from '@/lib/dates';
import { toApiListQuery } from '@/lib/list-params';
import { useListState } from '@/lib/use-list-state';

import { downloadAuditCsv, useAdminAudit } from '../api/get-admin-audit';
import { AuditEntryDialog } from './audit-entry-dialog';
import { AuditFilters, type AuditFilterValues } from './audit-filters';
import { actionLabel, actorLabel, OUTCOME_LABELS, targetLabel } from './audit-labels';

const LIST_DEFAULTS = {
  sort: { field: 'at', order: 'desc' as const },
  filters: { admin_id: '', user_id: '', action: '', from: '', to: '' },
  sortFields: ['at'] as const,
};

/**
 * «Журнал действий» (docs/money.md, The audit log): every admin action on money, access or prices, each admin
 * sign-in and the system's payments and refunds, newest first; filters, each entry's before and after, CSV export.
 */
export function AdminAuditScreen() {
  const list = useListState(LIST_DEFAULTS);
  const { sortField: _field, sortOrder: _order, ...query } = toApiListQuery(list.state);
  const audit = useAdminAudit(query);
  const [viewed, setViewed] = useState<AuditEntry | null>(null);
  const [exporting, setExporting] = useState(false);
  const [exportError, setExportError] = useState<string | null>(null);

  async function exportCsv() {
    setExporting(true);
    setExportError(null);
    const { page: _page, limit: _limit, ...filters } = query;
    try {
      await downloadAuditCsv(filters);
    } catch (err) {
      setExportError(errorMessage(err, 'Ошибка выгрузки журнала.'));
    } finally {
      setExporting(false);
    }
  }

  const columns = useMemo<DataColumn<AuditEntry>[]>(
    () => [
      {
        id: 'at',
        header: 'Время',
        cell: (e) => formatDateTime(e.at),
        className: 'text-nowrap d-none d-md-table-cell',
        sortable: false,
      },
      {
        id: 'actor',
        header: 'Кто',
        className: 'data-table-person d-none d-md-table-cell',
        cell: (e) =>
          e.actor.role === 'system' ? (
            'Система'
          ) : (
            <>
              <div>{e.actor.email ? <EmailText email={e.actor.email} /> : 'Администратор'}</div>
              <div className="small text-body-secondary">ID {e.actor.id}</div>
            </>
          ),
        sortable: false,
      },
      {
        id: 'action',
        header: 'Действие',
        cell: (e) => (
          <>
            {actionLabel(e.action)}
            {/* Narrow screens: when, who and what under the action; the detail has the rest. */}
            <div className="small text-body-secondary d-md-none">
              {formatDateTime(e.at)} · {targetLabel(e)}
            </div>
            <div className="small text-body-secondary d-md-none">
              {e.actor.email ? <EmailText email={e.actor.email} /> : actorLabel(e)}
            </div>
          </>
        ),
        sortable: false,
      },
      {
        id: 'target',
        header: 'Объект',
        className: 'd-none d-md-table-cell',
        cell: (e) => (
          <>
            <div className="text-break">{targetLabel(e)}</div>
            {e.target.user_id !== null && e.target.type !== 'user' && (
              <div className="small text-body-secondary">Пользователь {e.target.user_id}</div>
            )}
          </>
        ),
        sortable: false,
      },
      {
        id: 'reason',
        header: 'Причина',
        cell: (e) => <span className="text-break">{e.reason ?? '—'}</span>,
        className: 'd-none d-lg-table-cell',
        sortable: false,
      },
      {
        id: 'outcome',
        header: 'Итог',
        cell: (e) => OUTCOME_LABELS[e.outcome] ?? e.outcome,
        className: 'd-none d-md-table-cell',
        sortable: false,
      },
      actionsColumn((e) => [rowAction.view(() => setViewed(e))]),
    ],
    [],
  );

  return (
    <>
      <AuditFilters
        applied={list.state.filters}
        onChange={(patch: Partial<AuditFilterValues>) => list.setFilters(patch, { replace: true })}
        onReset={list.resetFilters}
      />
      {audit.isError && <Alert variant="danger">{errorMessage(audit.error, 'Ошибка загрузки журнала.')}</Alert>}
      {exportError && <Alert variant="danger">{exportError}</Alert>}
      <div className="d-flex justify-content-end mb-3">
        <BusyButton
          variant="outline-secondary"
          busy={exporting}
          onClick={() => void exportCsv()}
          title="Открывается в русском Excel: «;», московское время"
        >
          Экспорт CSV
        </BusyButton>
      </div>
      <DataTable
        {...list.table}
        columns={columns}
        rows={audit.data?.entries}
        rowCount={audit.data?.total ?? 0}
        getRowId={(e) => `${e.service}-${e.id}`}
        loading={audit.isFetching}
        emptyText="Записей нет"
        label="Журнал действий"
      />
      <AuditEntryDialog entry={viewed} onHide={() => setViewed(null)} />
    </>
  );
}
