import { useMemo, useState } from 'react';
import { useNavigate } from 'react-router-dom';

import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { actionsColumn, DataTable, rowAction, type DataColumn } from '@/components/ui/data-table';
import { ErrorBanner } from '@/components/ui/error-banner';
import { StatusBadge } from '@/components/ui/status-badge';
import { useToast } from '@/components/ui/toasts';
import { paths } from '@/config/paths';
import { errorMessage } from '@/lib/api-client';
import { formatShortDate } from '@/lib/dates';
import { toApiListQuery } from '@/lib/list-params';
import { useListState } from '@/lib/use-list-state';

import { useDeleteAdminUser } from '../api/delete-admin-user';
import { useAdminUsers } from '../api/get-admin-users';
import { useTariffOptions } from '../api/get-tariff-options';
import { useUtmStats } from '../api/get-utm-stats';
import { displayName, formatCredits, formatDollars, formatRoubles, tariffLabel, userTitle, utmLabel } from '../format';
import { roleLabel, USER_FILTERS, USER_SORT_FIELDS, type AdminUser } from '../types';
import { UserEditDialog } from './user-edit-dialog';
import { UserViewDialog } from './user-view-dialog';
import { UsersFilters } from './users-filters';
import { UtmChips } from './utm-chips';

const LIST_DEFAULTS = {
  sort: { field: 'id', order: 'desc' as const },
  filters: USER_FILTERS,
  sortFields: USER_SORT_FIELDS,
};

/** The admin users screen (spec §2): UTM chips, filters, the server-driven table and its dialogs. */
export function AdminUsersScreen() {
  const navigate = useNavigate();
  const toast = useToast();
  const list = useListState(LIST_DEFAULTS);
  const users = useAdminUsers(toApiListQuery(list.state));
  const stats = useUtmStats();
  const tariffs = useTariffOptions();
  const remove = useDeleteAdminUser();
  const [viewed, setViewed] = useState<AdminUser | null>(null);
  const [edited, setEdited] = useState<AdminUser | null>(null);
  const [deleted, setDeleted] = useState<AdminUser | null>(null);

  const columns = useMemo<DataColumn<AdminUser>[]>(
    () => [
      { id: 'id', header: 'ID', cell: (u) => u.id, width: 70 },
      {
        id: 'email',
        header: 'Пользователь',
        cell: (u) => (
          <>
            <div className="text-nowrap">{u.email ?? '—'}</div>
            {displayName(u) && <div className="small text-body-secondary text-nowrap">{displayName(u)}</div>}
          </>
        ),
      },
      { id: 'utm_source', header: 'UTM', cell: (u) => utmLabel(u.utm_source), className: 'text-nowrap' },
      { id: 'credits', header: 'Кредиты', cell: (u) => formatCredits(u.credits), className: 'text-end text-nowrap' },
      {
        id: 'money_spent',
        header: 'Потрачено',
        cell: (u) => formatDollars(u.money_spent),
        className: 'text-end text-nowrap',
      },
      {
        id: 'money_deposited',
        header: 'Пополнено',
        cell: (u) => formatRoubles(u.money_deposited),
        className: 'text-end text-nowrap',
      },
      { id: 'messages_count', header: 'Сообщения', cell: (u) => u.messages_count, className: 'text-end' },
      {
        id: 'role',
        header: 'Роль',
        cell: (u) => (
          <StatusBadge value={u.role} labels={{ [u.role]: roleLabel(u.role) }} variants={{ admin: 'dark' }} />
        ),
      },
      { id: 'tariff_name', header: 'Тариф', cell: (u) => tariffLabel(u.tariff_name), className: 'text-nowrap' },
      { id: 'created_at', header: 'Регистрация', cell: (u) => formatShortDate(u.created_at), className: 'text-nowrap' },
      actionsColumn((u) => [
        rowAction.view(() => setViewed(u)),
        rowAction.edit(() => setEdited(u)),
        rowAction.delete(() => setDeleted(u)),
        u.messages_count > 0 && rowAction.history(() => navigate(`${paths.admin.history}?userId=${u.id}`)),
      ]),
    ],
    [navigate],
  );

  function confirmDelete() {
    if (!deleted) return;
    remove.mutate(deleted.id, {
      onSuccess: () => {
        toast.success('Пользователь удален', userTitle(deleted));
        setDeleted(null);
      },
    });
  }

  return (
    <>
      <ErrorBanner message={users.isError ? errorMessage(users.error, 'Ошибка загрузки пользователей') : null} />
      <UtmChips
        stats={stats.data ?? []}
        active={list.state.filters.utm_source}
        onPick={(source) => list.setFilters({ utm_source: source })}
      />
      <UsersFilters
        key={JSON.stringify(list.state.filters)}
        applied={list.state.filters}
        tariffs={tariffs.data ?? []}
        onApply={(filters) => list.setFilters(filters)}
        onReset={list.resetFilters}
      />
      <div className="admin-users-table">
        <DataTable
          {...list.table}
          columns={columns}
          rows={users.data?.users}
          rowCount={users.data?.total ?? 0}
          getRowId={(u) => u.id}
          loading={users.isFetching}
          emptyText="Пользователи не найдены"
          label="Пользователи"
        />
      </div>
      <UserViewDialog user={viewed} onHide={() => setViewed(null)} />
      <UserEditDialog
        key={edited?.id ?? 'none'}
        user={edited}
        tariffs={tariffs.data ?? []}
        onHide={() => setEdited(null)}
        onSaved={(user) => {
          toast.success('Изменения сохранены', userTitle(user));
          setEdited(null);
        }}
      />
      <ConfirmDialog
        show={deleted !== null}
        title="Удаление пользователя"
        message={
          <>
            Вы действительно хотите удалить пользователя <strong>{deleted && userTitle(deleted)}</strong>?
          </>
        }
        onConfirm={confirmDelete}
        onCancel={() => {
          setDeleted(null);
          remove.reset();
        }}
        pending={remove.isPending}
        error={remove.isError ? errorMessage(remove.error, 'Ошибка удаления пользователя') : null}
      />
    </>
  );
}
