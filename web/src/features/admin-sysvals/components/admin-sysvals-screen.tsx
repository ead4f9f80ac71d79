import { SETTING_GROUPS, settingDescription, type SysVal } from '@gpt/contracts';
import { useId, useMemo } from 'react';
import Form from 'react-bootstrap/Form';

import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { AddButton, useCrudDialogs, useDeleteRow } from '@/components/ui/crud-dialogs';
import { actionsColumn, DataTable, rowAction, type DataColumn } from '@/components/ui/data-table';
import { ErrorBanner } from '@/components/ui/error-banner';
import { useToast } from '@/components/ui/toasts';
import { DetailList, ViewDialog } from '@/components/ui/view-dialog';
import { useActionKey } from '@/lib/action-key';
import { errorMessage } from '@/lib/api-client';
import { formatDateTime } from '@/lib/dates';
import { useListState } from '@/lib/use-list-state';

import { useSysVals } from '../api/get-sys-vals';
import { useCreateSysVal, useDeleteSysVal, useUpdateSysVal } from '../api/save-sys-val';
import { SysValFormDialog } from './sys-val-form-dialog';

// Every setting at once, section by section and by key within one, found by the search box, never by paging.
const LIST_DEFAULTS = { sort: { field: 'key', order: 'asc' as const }, sortFields: ['key'], filters: { q: '' } };

/** The section a setting is shown under: its own, else «Другие» (a key no service reads). */
const OTHER_SECTION = 'Другие';
const sectionOf = (setting: SysVal) => settingDescription(setting.key)?.group ?? OTHER_SECTION;
const sectionOrder = (setting: SysVal) => {
  const group = settingDescription(setting.key)?.group;
  return group === undefined ? SETTING_GROUPS.length : SETTING_GROUPS.indexOf(group);
};

/** Case and «ё» aside, as a person types it. */
const folded = (text: string) => text.toLocaleLowerCase('ru-RU').replaceAll('ё', 'е');

/** Whether a setting's key, section, description or value holds every word of the search. */
function matches(setting: SysVal, search: string): boolean {
  const haystack = folded(
    [setting.key, sectionOf(setting), settingDescription(setting.key)?.text ?? '', setting.value].join(' '),
  );
  return folded(search)
    .split(/\s+/)
    .every((word) => haystack.includes(word));
}

/** The settings screen (docs/product.md, Screens): settings under their sections, a search, view, add, edit and delete. */
export function AdminSysValsScreen() {
  const toast = useToast();
  const searchId = useId();
  const list = useListState(LIST_DEFAULTS);
  const search = list.state.filters.q;
  const settings = useSysVals();
  const crud = useCrudDialogs<SysVal>();
  const formKey = useActionKey(crud.formOpen);
  const create = useCreateSysVal(formKey);
  const update = useUpdateSysVal(formKey);
  const { viewed, view, edit, askDelete } = crud;
  const deleting = useDeleteRow(crud, useDeleteSysVal(useActionKey(crud.deleted !== null)), {
    idOf: (s) => s.key,
    deleted: 'Настройка удалена',
    nameOf: (s) => s.key,
    failed: 'Ошибка удаления настройки',
  });

  const rows = useMemo(
    () =>
      settings.data
        ?.filter((setting) => matches(setting, search.trim()))
        .toSorted((a, b) => sectionOrder(a) - sectionOrder(b) || (a.key < b.key ? -1 : 1)),
    [settings.data, search],
  );

  const columns = useMemo<DataColumn<SysVal>[]>(
    () => [
      { id: 'id', header: 'ID', cell: (s) => s.id, width: 70, sortable: false },
      {
        id: 'key',
        header: 'Настройка',
        sortable: false,
        cell: (s) => (
          <>
            <code className="fw-medium text-nowrap">{s.key}</code>
            <div className="small text-body-secondary">{settingDescription(s.key)?.text}</div>
          </>
        ),
      },
      {
        id: 'value',
        header: 'Значение',
        // A value as stored (a model's name, a voice); a model's name (the *_model settings) never breaks at its hyphens.
        cell: (s) => (
          <span className="sys-val-value" translate="no">
            {s.key.endsWith('_model') ? <span className="model-name">{s.value}</span> : s.value}
          </span>
        ),
        sortable: false,
      },
      {
        id: 'updated_at',
        header: 'Обновлено',
        cell: (s) => formatDateTime(s.updated_at),
        className: 'text-nowrap',
        sortable: false,
      },
      actionsColumn((s) => [
        rowAction.view(() => view(s)),
        rowAction.edit(() => edit(s)),
        rowAction.delete(() => askDelete(s)),
      ]),
    ],
    [view, edit, askDelete],
  );

  // Creating and editing are two calls with their own texts, so the form's save is this screen's own.
  function closeForm() {
    create.reset();
    update.reset();
    crud.closeForm();
  }

  function submit(values: { key: string; value: string }) {
    const saved = (title: string) => (setting: SysVal) => {
      toast.success(title, setting.key);
      closeForm();
    };
    const edited = crud.editedRow;
    if (!edited) create.mutate(values, { onSuccess: saved('Настройка добавлена') });
    else update.mutate({ key: edited.key, value: values.value }, { onSuccess: saved('Настройка сохранена') });
  }

  const saveError =
    crud.editedRow === null
      ? create.isError
        ? errorMessage(create.error, 'Ошибка создания настройки.')
        : null
      : update.isError
        ? errorMessage(update.error, 'Ошибка сохранения.')
        : null;

  return (
    <>
      <ErrorBanner message={settings.isError ? errorMessage(settings.error, 'Ошибка загрузки настроек.') : null} />
      <div className="sys-vals-toolbar mb-3">
        <Form.Group controlId={searchId} className="sys-vals-search">
          <Form.Label className="small text-body-secondary mb-1">Найти настройку</Form.Label>
          <Form.Control
            type="search"
            value={search}
            placeholder="Ключ, раздел, описание или значение"
            onChange={(event) => list.setFilters({ q: event.target.value }, { replace: true })}
          />
        </Form.Group>
        <AddButton onClick={crud.create}>Добавить настройку</AddButton>
      </div>
      <DataTable
        {...list.table}
        columns={columns}
        rows={rows}
        rowCount={rows?.length ?? 0}
        getRowId={(s) => s.id}
        loading={settings.isFetching}
        emptyText={search.trim() ? 'Ничего не найдено. Измените запрос.' : 'Настроек нет'}
        label="Настройки"
        paged={false}
        groupOf={sectionOf}
      />
      <ViewDialog show={viewed !== null} title="Настройка" onHide={crud.closeView}>
        {viewed && (
          <DetailList
            items={[
              { label: 'ID', value: viewed.id },
              { label: 'Ключ', value: <code>{viewed.key}</code> },
              { label: 'Раздел', value: sectionOf(viewed) },
              {
                label: 'Описание',
                value: settingDescription(viewed.key)?.text,
                hidden: !settingDescription(viewed.key),
              },
              { label: 'Значение', value: <span className="sys-val-value">{viewed.value}</span> },
              { label: 'Создано', value: formatDateTime(viewed.created_at) },
              { label: 'Обновлено', value: formatDateTime(viewed.updated_at) },
            ]}
          />
        )}
      </ViewDialog>
      <SysValFormDialog
        key={crud.formKey}
        show={crud.formOpen}
        setting={crud.editedRow}
        saving={create.isPending || update.isPending}
        error={saveError}
        onHide={closeForm}
        onSave={submit}
      />
      <ConfirmDialog
        {...deleting.dialog}
        title="Удаление настройки"
        message={
          <>
            Вы уверены, что хотите удалить настройку <strong>«{crud.deleted?.key}»</strong>?
          </>
        }
      />
    </>
  );
}
