import { ADMIN_ARTICLES_SORT_FIELDS, type AdminArticle } from '@gpt/contracts';
import { useMemo, useState } from 'react';
import Button from 'react-bootstrap/Button';

import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { AddButton, useCrudDialogs, useDeleteRow, useSaveRow } from '@/components/ui/crud-dialogs';
import { actionsColumn, DataTable, rowAction, type DataColumn } from '@/components/ui/data-table';
import { ErrorBanner } from '@/components/ui/error-banner';
import { Icon } from '@/components/ui/icons';
import { StatusBadge } from '@/components/ui/status-badge';
import { errorMessage } from '@/lib/api-client';
import { formatShortDate } from '@/lib/dates';
import { toApiListQuery } from '@/lib/list-params';
import { useListState } from '@/lib/use-list-state';

import { useDeleteArticle } from '../api/delete-article';
import { useAdminArticles } from '../api/get-admin-articles';
import { useSaveArticle } from '../api/save-article';
import type { TaxonomyKind } from '../api/taxonomies';
import { articleStatusBadge } from '../article-status';
import { ArticleFormDialog } from './article-form-dialog';
import { ArticleViewDialog } from './article-view-dialog';
import { TaxonomyManagerDialog } from './taxonomy-manager-dialog';

import './admin-articles.css';

/** Default sort id ascending (docs/product.md, Limits). */
const LIST_DEFAULTS = {
  sort: { field: 'id', order: 'asc' as const },
  sortFields: ADMIN_ARTICLES_SORT_FIELDS,
};

/** The admin articles screen (docs/product.md, Screens): the table, create / view / edit / delete, categories and tags. */
export function AdminArticlesScreen() {
  const list = useListState(LIST_DEFAULTS);
  const articles = useAdminArticles(toApiListQuery(list.state));
  const crud = useCrudDialogs<AdminArticle>();
  const { view, edit, askDelete } = crud;
  const saving = useSaveRow(crud, useSaveArticle(), {
    created: 'Статья создана',
    saved: 'Статья сохранена',
    nameOf: (a) => a.title,
    failed: 'Ошибка сохранения статьи',
  });
  const deleting = useDeleteRow(crud, useDeleteArticle(), {
    idOf: (a) => a.id,
    deleted: 'Статья удалена',
    nameOf: (a) => a.title,
    failed: 'Ошибка удаления статьи',
  });
  const [managed, setManaged] = useState<TaxonomyKind | null>(null);

  const columns = useMemo<DataColumn<AdminArticle>[]>(
    () => [
      { id: 'id', header: 'ID', cell: (a) => a.id, width: 70 },
      { id: 'title', header: 'Заголовок', cell: (a) => a.title, className: 'fw-medium' },
      // Narrower than the sidebar layout the address and the views (both in «Просмотр статьи») give way, so the
      // title keeps its room and the date stays whole beside the actions.
      {
        id: 'slug',
        header: 'Адрес',
        cell: (a) => <code className="small">{a.slug}</code>,
        className: 'd-none d-lg-table-cell',
      },
      { id: 'status', header: 'Статус', cell: (a) => <StatusBadge value={a.status} {...articleStatusBadge} /> },
      {
        id: 'view_count',
        header: 'Просмотры',
        cell: (a) => a.view_count,
        className: 'text-end d-none d-lg-table-cell',
      },
      {
        id: 'published_at',
        header: 'Опубликована',
        cell: (a) => formatShortDate(a.published_at) || '—',
        className: 'text-nowrap',
      },
      actionsColumn((a) => [
        rowAction.view(() => view(a)),
        rowAction.edit(() => edit(a)),
        rowAction.delete(() => askDelete(a)),
      ]),
    ],
    [view, edit, askDelete],
  );

  return (
    <>
      <ErrorBanner message={articles.isError ? errorMessage(articles.error, 'Ошибка загрузки статей.') : null} />
      <div className="d-flex flex-wrap justify-content-end gap-2 mb-3">
        <Button variant="outline-dark" onClick={() => setManaged('category')}>
          <Icon name="article" size={16} className="me-1" />
          Категории
        </Button>
        <Button variant="outline-dark" onClick={() => setManaged('tag')}>
          <Icon name="tag" size={16} className="me-1" />
          Теги
        </Button>
        <AddButton onClick={crud.create}>Создать статью</AddButton>
      </div>
      <DataTable
        {...list.table}
        columns={columns}
        rows={articles.data?.articles}
        rowCount={articles.data?.total ?? 0}
        getRowId={(a) => a.id}
        loading={articles.isFetching}
        emptyText="Статей пока нет"
        label="Статьи"
      />
      <ArticleViewDialog article={crud.viewed} onHide={crud.closeView} />
      {crud.formOpen && <ArticleFormDialog key={crud.formKey} article={crud.editedRow} {...saving.dialog} />}
      <ConfirmDialog
        {...deleting.dialog}
        title="Удаление статьи"
        message={
          <>
            Вы действительно хотите удалить статью <strong>«{crud.deleted?.title}»</strong>?
          </>
        }
      />
      {managed !== null && <TaxonomyManagerDialog key={managed} kind={managed} show onHide={() => setManaged(null)} />}
    </>
  );
}
