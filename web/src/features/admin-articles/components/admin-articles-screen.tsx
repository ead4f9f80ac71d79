import type { AdminArticle } from '@gpt/contracts';
import { useMemo, useState } from 'react';
import Button from 'react-bootstrap/Button';

import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { actionsColumn, DataTable, rowAction, type DataColumn } from '@/components/ui/data-table';
import { ErrorBanner } from '@/components/ui/error-banner';
import { Icon } from '@/components/ui/icons';
import { StatusBadge } from '@/components/ui/status-badge';
import { useToast } from '@/components/ui/toasts';
import { errorMessage } from '@/lib/api-client';
import { formatShortDate } from '@/lib/dates';
import { toApiListQuery } from '@/lib/list-params';
import { useListState } from '@/lib/use-list-state';

import { useDeleteArticle } from '../api/delete-article';
import { useAdminArticles } from '../api/get-admin-articles';
import { useSaveArticle, type ArticleBody } from '../api/save-article';
import type { TaxonomyKind } from '../api/taxonomies';
import { articleStatusBadge } from '../article-status';
import { ArticleFormDialog } from './article-form-dialog';
import { ArticleViewDialog } from './article-view-dialog';
import { TaxonomyManagerDialog } from './taxonomy-manager-dialog';

import './admin-articles.css';

/** Default sort id ascending (spec §9). */
const LIST_DEFAULTS = {
  sort: { field: 'id', order: 'asc' as const },
  sortFields: ['id', 'title', 'slug', 'status', 'view_count', 'reading_time', 'published_at', 'created_at'],
};

/** The admin articles screen (spec §2): the table, create / view / edit / delete, categories and tags. */
export function AdminArticlesScreen() {
  const toast = useToast();
  const list = useListState(LIST_DEFAULTS);
  const articles = useAdminArticles(toApiListQuery(list.state));
  const save = useSaveArticle();
  const remove = useDeleteArticle();
  const [viewed, setViewed] = useState<AdminArticle | null>(null);
  /** The article in the form dialog: 'new' for a new one. */
  const [edited, setEdited] = useState<AdminArticle | 'new' | null>(null);
  const [deleted, setDeleted] = useState<AdminArticle | null>(null);
  const [managed, setManaged] = useState<TaxonomyKind | null>(null);

  const columns = useMemo<DataColumn<AdminArticle>[]>(
    () => [
      { id: 'id', header: 'ID', cell: (a) => a.id, width: 70 },
      { id: 'title', header: 'Заголовок', cell: (a) => a.title, className: 'fw-medium' },
      { id: 'slug', header: 'Slug', cell: (a) => <code className="small">{a.slug}</code> },
      { id: 'status', header: 'Статус', cell: (a) => <StatusBadge value={a.status} {...articleStatusBadge} /> },
      { id: 'view_count', header: 'Просмотры', cell: (a) => a.view_count, className: 'text-end' },
      {
        id: 'published_at',
        header: 'Опубликована',
        cell: (a) => formatShortDate(a.published_at) || '—',
        className: 'text-nowrap',
      },
      actionsColumn((a) => [
        rowAction.view(() => setViewed(a)),
        rowAction.edit(() => setEdited(a)),
        rowAction.delete(() => setDeleted(a)),
      ]),
    ],
    [],
  );

  function submit(body: ArticleBody) {
    const target = edited === 'new' ? undefined : edited?.id;
    save.mutate(
      { ...body, id: target },
      {
        onSuccess: (article) => {
          toast.success(target === undefined ? 'Статья создана' : 'Статья сохранена', article.title);
          setEdited(null);
        },
      },
    );
  }

  function closeForm() {
    save.reset();
    setEdited(null);
  }

  function confirmDelete() {
    if (!deleted) return;
    remove.mutate(deleted.id, {
      onSuccess: () => {
        toast.success('Статья удалена', deleted.title);
        setDeleted(null);
      },
    });
  }

  return (
    <>
      <ErrorBanner message={articles.isError ? errorMessage(articles.error, 'Ошибка загрузки статей') : null} />
      <div className="d-flex flex-wrap justify-content-end gap-2 mb-3">
        <Button variant="outline-secondary" onClick={() => setManaged('category')}>
          <Icon name="article" size={16} className="me-1" />
          Категории
        </Button>
        <Button variant="outline-secondary" onClick={() => setManaged('tag')}>
          <Icon name="tag" size={16} className="me-1" />
          Теги
        </Button>
        <Button variant="primary" onClick={() => setEdited('new')}>
          <Icon name="plus" size={16} className="me-1" />
          Создать статью
        </Button>
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
      <ArticleViewDialog article={viewed} onHide={() => setViewed(null)} />
      {edited !== null && (
        <ArticleFormDialog
          key={edited === 'new' ? 'new' : edited.id}
          show
          article={edited === 'new' ? null : edited}
          saving={save.isPending}
          saveError={save.isError ? errorMessage(save.error, 'Ошибка сохранения статьи') : null}
          onHide={closeForm}
          onSave={submit}
        />
      )}
      <ConfirmDialog
        show={deleted !== null}
        title="Удаление статьи"
        message={
          <>
            Вы действительно хотите удалить статью <strong>«{deleted?.title}»</strong>?
          </>
        }
        onConfirm={confirmDelete}
        onCancel={() => {
          remove.reset();
          setDeleted(null);
        }}
        pending={remove.isPending}
        error={remove.isError ? errorMessage(remove.error, 'Ошибка удаления статьи') : null}
      />
      {managed !== null && <TaxonomyManagerDialog key={managed} kind={managed} show onHide={() => setManaged(null)} />}
    </>
  );
}
