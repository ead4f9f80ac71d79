import { ADMIN_USERS_SORT_FIELDS, personName, type AdminUserRow as AdminUser } from '@gpt/contracts';
import { useMemo, useState } from 'react';
import { useNavigate } from 'react-router-dom';

import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { useCrudDialogs, useDeleteRow } from '@/components/ui/crud-dialogs';
import { actionsColumn, DataTable, rowAction, type DataColumn } from '@/components/ui/data-table';
import { EmailText } from '@/components/ui/email-text';
import { ErrorBanner } from '@/components/ui/error-banner';
import { Icon } from '@/components/ui/icons';
import { StatusBadge } from '@/components/ui/status-badge';
import { useToast } from '@/components/ui/toasts';
import { paths } from '@/config/paths';
import { useActionKey } from '@/lib/action-key';
import { errorMessage } from '@/lib/api-client';
import { formatShortDate } from '@/lib/dates';
import { exactUsd, formatUsdSum } from '@/lib/money';
import { toApiListQuery } from '@/lib/list-params';
import { useTariffOptions } from '@/lib/admin-tariff-options';
import { useListState } from '@/lib/use-list-state';

import { useDeleteAdminUser } from '../api/delete-admin-user';
import { useAdminUsers } from '../api/get-admin-users';
import { useUtmStats } from '../api/get-utm-stats';
import { useUnlinkAdminUserTelegram } from '../api/unlink-admin-user-telegram';
import { formatCredits, formatRoubles, tariffLabel, userTitle, utmLabel } from '../format';
import { roleLabel, USER_FILTERS } from '../types';
import { TelegramBlockedBadge } from './telegram-blocked-badge';
import { UserEditDialog } from './user-edit-dialog';
import { UserViewDialog } from './user-view-dialog';
import { UsersFilters } from './users-filters';
import { UtmChips } from './utm-chips';

const LIST_DEFAULTS = {
  sort: { field: 'id', order: 'desc' as const },
  filters: USER_FILTERS,
  sortFields: ADMIN_USERS_SORT_FIELDS,
};

/** The admin users screen (docs/product.md, Screens): UTM chips, filters, the server-driven table and its dialogs. */
export function AdminUsersScreen() {
  const navigate = useNavigate();
  const toast = useToast();
  const list = useListState(LIST_DEFAULTS);
  const users = useAdminUsers(toApiListQuery(list.state));
  const stats = useUtmStats();
  const tariffs = useTariffOptions();
  const crud = useCrudDialogs<AdminUser>();
  const { view, edit, askDelete } = crud;
  const deleting = useDeleteRow(crud, useDeleteAdminUser(useActionKey(crud.deleted !== null)), {
    idOf: (u) => u.id,
    deleted: 'Пользователь удален',
    nameOf: userTitle,
    failed: 'Ошибка удаления пользователя',
  });
  const [unlinking, setUnlinking] = useState<AdminUser | null>(null);
  const unlink = useUnlinkAdminUserTelegram(useActionKey(unlinking !== null));
  const closeUnlink = () => {
    unlink.reset();
    setUnlinking(null);
  };

  const columns = useMemo<DataColumn<AdminUser>[]>(
    () => [
      { id: 'id', header: 'ID', cell: (u) => u.id, width: 50 },
      {
        id: 'email',
        header: 'Пользователь',
        className: 'admin-users-person',
        cell: (u) => (
          <>
            <div>
              {u.email ? <EmailText email={u.email} /> : '—'}
              <TelegramBlockedBadge since={u.telegram_blocked_at} />
            </div>
            {personName(u) !== (u.email ?? '') && <div className="small text-body-secondary">{personName(u)}</div>}
          </>
        ),
      },
      {
        id: 'utm_source',
        header: 'UTM',
        cell: (u) => <span translate="no">{utmLabel(u.utm_source)}</span>,
        // Below 1 400 px the UTM source (also the chips above) and the referrer, below 992 px the deposits (both also
        // in the view dialog) give way, so from 1 280 px the table fits beside the sidebar with its actions in view.
        className: 'admin-users-utm d-none d-xxl-table-cell',
      },
      {
        id: 'referrer',
        header: 'Пригласил',
        cell: (u) => (u.referrer ? <span data-testid="user-referrer">{u.referrer}</span> : '—'),
        sortable: false,
        className: 'admin-users-referrer d-none d-xxl-table-cell',
      },
      { id: 'credits', header: 'Кредиты', cell: (u) => formatCredits(u.credits), className: 'text-end text-nowrap' },
      {
        id: 'money_spent',
        header: 'Потрачено',
        cell: (u) => <span title={exactUsd(u.money_spent)}>{formatUsdSum(u.money_spent)}</span>,
        className: 'text-end text-nowrap',
      },
      {
        id: 'money_deposited',
        header: 'Пополнено',
        cell: (u) => formatRoubles(u.money_deposited),
        className: 'text-end text-nowrap d-none d-lg-table-cell',
      },
      {
        id: 'messages_count',
        // An icon with its name as the title keeps the column as narrow as its counts.
        header: <Icon name="chat" size={16} title="Сообщения" />,
        cell: (u) => u.messages_count,
        className: 'text-end',
      },
      {
        id: 'role',
        header: 'Роль',
        cell: (u) => (
          <StatusBadge value={u.role} labels={{ [u.role]: roleLabel(u.role) }} variants={{ admin: 'dark' }} />
        ),
      },
      { id: 'tariff_name', header: 'Тариф', cell: (u) => tariffLabel(u.tariff_name) },
      { id: 'created_at', header: 'Регистрация', cell: (u) => formatShortDate(u.created_at), className: 'text-nowrap' },
      actionsColumn((u) => [
        rowAction.view(() => view(u)),
        rowAction.edit(() => edit(u)),
        rowAction.delete(() => askDelete(u)),
        u.email !== null &&
          u.telegram_id !== null && {
            label: 'Отвязать Telegram',
            icon: 'send',
            variant: 'danger',
            onClick: () => setUnlinking(u),
          },
        u.messages_count > 0 && rowAction.history(() => navigate(`${paths.admin.history}?userId=${u.id}`)),
      ]),
    ],
    [navigate, view, edit, askDelete],
  );

  return (
    <>
      <ErrorBanner message={users.isError ? errorMessage(users.error, 'Ошибка загрузки пользователей.') : null} />
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
      <UserViewDialog user={crud.viewed} onHide={crud.closeView} />
      <UserEditDialog
        key={crud.formKey}
        user={crud.editedRow}
        tariffs={tariffs.data ?? []}
        onHide={crud.closeForm}
        onSaved={(user) => {
          toast.success('Изменения сохранены', userTitle(user));
          crud.closeForm();
        }}
      />
      <ConfirmDialog
        show={unlinking !== null}
        title="Отвязать Telegram"
        message={
          <>
            Отвязать Telegram от аккаунта <strong>{unlinking && userTitle(unlinking)}</strong>? Баланс, платежи и
            история останутся у аккаунта сайта, Telegram продолжит с новым аккаунтом в боте.
          </>
        }
        confirmLabel="Отвязать"
        pending={unlink.isPending}
        error={unlink.isError ? errorMessage(unlink.error, 'Ошибка отвязки Telegram.') : undefined}
        onConfirm={() =>
          unlinking &&
          unlink.mutate(unlinking.id, {
            onSuccess: () => {
              toast.success('Telegram отвязан', userTitle(unlinking));
              closeUnlink();
            },
          })
        }
        onCancel={closeUnlink}
      />
      <ConfirmDialog
        {...deleting.dialog}
        title="Удаление пользователя"
        message={
          <>
            Вы действительно хотите удалить пользователя <strong>{crud.deleted && userTitle(crud.deleted)}</strong>?
          </>
        }
      />
    </>
  );
}
