import type { SupportRequest } from '@gpt/contracts';
import { useMemo, useState } from 'react';
import Col from 'react-bootstrap/Col';
import Form from 'react-bootstrap/Form';

import { actionsColumn, DataTable, type DataColumn } from '@/components/ui/data-table';
import { ErrorBanner } from '@/components/ui/error-banner';
import { FilterField, FiltersCard } from '@/components/ui/list-filters';
import { StatusBadge } from '@/components/ui/status-badge';
import { useToast } from '@/components/ui/toasts';
import { errorMessage } from '@/lib/api-client';
import { formatDateTime } from '@/lib/dates';
import { toApiListQuery } from '@/lib/list-params';
import { useListState } from '@/lib/use-list-state';

import { useSupportRequests } from '../api/get-support-requests';
import { useMarkSupportDone } from '../api/mark-support-done';
import { senderOf, SUPPORT_STATUS_LABELS, SUPPORT_STATUS_VARIANTS } from '../format';
import { SupportAnswerDialog } from './support-answer-dialog';

const LIST_DEFAULTS = {
  sort: { field: 'created_at', order: 'desc' as const },
  sortFields: ['created_at'] as const,
  filters: { status: '' },
};

const LOAD_FAILED = 'Ошибка загрузки обращений.';

/** The admin's «Обращения»: the contact form's messages, new ones first; read, answer, mark done. */
export function AdminSupportScreen() {
  const toast = useToast();
  const list = useListState(LIST_DEFAULTS);
  const requests = useSupportRequests(toApiListQuery(list.state));
  const done = useMarkSupportDone();
  const [opened, setOpened] = useState<SupportRequest | null>(null);

  const columns = useMemo<DataColumn<SupportRequest>[]>(
    () => [
      {
        id: 'created_at',
        header: 'Получено',
        cell: (r) => formatDateTime(r.created_at),
        className: 'text-nowrap',
        sortable: false,
      },
      { id: 'sender', header: 'От', cell: senderOf, className: 'data-table-person', sortable: false },
      { id: 'subject', header: 'Тема', cell: (r) => r.subject, className: 'fw-medium', sortable: false },
      {
        id: 'message',
        header: 'Сообщение',
        cell: (r) => <span className="support-text">{r.message}</span>,
        sortable: false,
      },
      {
        id: 'status',
        header: 'Статус',
        sortable: false,
        cell: (r) => <StatusBadge value={r.status} labels={SUPPORT_STATUS_LABELS} variants={SUPPORT_STATUS_VARIANTS} />,
      },
      actionsColumn((r) => [
        {
          label: r.answer === null && r.answer_channel ? 'Ответить' : 'Открыть',
          icon: 'send',
          onClick: () => setOpened(r),
        },
        r.status === 'new' && {
          label: 'Отметить решённым',
          icon: 'check',
          onClick: () =>
            done.mutate(r.id, {
              onSuccess: () => toast.success('Готово', 'Обращение отмечено решённым.'),
              onError: (err) => toast.error('Ошибка', errorMessage(err, 'Не удалось отметить обращение.')),
            }),
        },
      ]),
    ],
    [done, toast],
  );

  return (
    <>
      <ErrorBanner message={requests.isError ? errorMessage(requests.error, LOAD_FAILED) : null} />
      <FiltersCard>
        <Col xs={12} md={4}>
          <FilterField controlId="support-filter-status" label="Статус">
            <Form.Select
              value={list.state.filters.status}
              onChange={(event) => list.setFilters({ status: event.target.value }, { replace: true })}
            >
              <option value="">Все</option>
              <option value="new">Новые</option>
              <option value="done">Решённые</option>
            </Form.Select>
          </FilterField>
        </Col>
      </FiltersCard>
      <DataTable
        {...list.table}
        columns={columns}
        rows={requests.data?.data}
        rowCount={requests.data?.total ?? 0}
        getRowId={(r) => r.id}
        loading={requests.isFetching}
        emptyText="Обращений нет"
        label="Обращения"
      />
      <SupportAnswerDialog request={opened} onHide={() => setOpened(null)} />
    </>
  );
}
