import { useState } from 'react';
import Table from 'react-bootstrap/Table';

import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { AddButton, useCrudDialogs, useDeleteRow } from '@/components/ui/crud-dialogs';
import { RowActions, rowAction } from '@/components/ui/data-table';
import { ErrorBanner } from '@/components/ui/error-banner';
import { FormDialog } from '@/components/ui/form-dialog';
import { TextField } from '@/components/ui/form-field';
import { SpinnerBlock } from '@/components/ui/spinner-block';
import { useToast } from '@/components/ui/toasts';
import { ViewDialog } from '@/components/ui/view-dialog';
import { errorMessage } from '@/lib/api-client';

import {
  type Taxonomy,
  type TaxonomyBody,
  type TaxonomyKind,
  useDeleteTaxonomy,
  useSaveTaxonomy,
  useTaxonomies,
} from '../api/taxonomies';
import { slugify } from '../slugify';
import { taxonomyProblem } from '../validation';

/** The texts of each kind (docs/product.md, Screens and Errors). */
const TEXTS = {
  category: {
    list: 'Категории',
    add: 'Добавить категорию',
    create: 'Новая категория',
    edit: 'Редактировать категорию',
    deleteTitle: 'Удаление категории',
    deleteQuestion: 'Вы действительно хотите удалить категорию',
    detached: 'Она будет снята со всех статей.',
    saved: 'Категория сохранена',
    deleted: 'Категория удалена',
    saveFailed: 'Ошибка сохранения категории',
    deleteFailed: 'Ошибка удаления категории',
    empty: 'Категорий пока нет',
  },
  tag: {
    list: 'Теги',
    add: 'Добавить тег',
    create: 'Новый тег',
    edit: 'Редактировать тег',
    deleteTitle: 'Удаление тега',
    deleteQuestion: 'Вы действительно хотите удалить тег',
    detached: 'Он будет снят со всех статей.',
    saved: 'Тег сохранён',
    deleted: 'Тег удалён',
    saveFailed: 'Ошибка сохранения тега',
    deleteFailed: 'Ошибка удаления тега',
    empty: 'Тегов пока нет',
  },
} as const;

interface FormValues {
  name: string;
  slug: string;
  description: string;
  meta_title: string;
  meta_description: string;
}

function formOf(item: Taxonomy<TaxonomyKind> | null): FormValues {
  return {
    name: item?.name ?? '',
    slug: item?.slug ?? '',
    description: item?.description ?? '',
    meta_title: item && 'meta_title' in item ? (item.meta_title ?? '') : '',
    meta_description: item && 'meta_description' in item ? (item.meta_description ?? '') : '',
  };
}

function bodyOf<K extends TaxonomyKind>(kind: K, values: FormValues): TaxonomyBody<K> {
  const text = (value: string) => value.trim() || null;
  const common = { name: values.name.trim(), slug: values.slug.trim(), description: text(values.description) };
  const body =
    kind === 'category'
      ? { ...common, meta_title: text(values.meta_title), meta_description: text(values.meta_description) }
      : common;
  return body as TaxonomyBody<K>;
}

/** Create / edit of one category or tag (600px, docs/product.md, Limits). */
function TaxonomyFormDialog<K extends TaxonomyKind>({
  kind,
  item,
  onHide,
}: {
  kind: K;
  /** null: a new one. */
  item: Taxonomy<K> | null;
  onHide: () => void;
}) {
  const texts = TEXTS[kind];
  const toast = useToast();
  const save = useSaveTaxonomy(kind);
  const [values, setValues] = useState<FormValues>(() => formOf(item));
  const [slugEdited, setSlugEdited] = useState(item !== null);
  const [problem, setProblem] = useState<string | null>(null);
  const set = (name: keyof FormValues, value: string) => setValues((current) => ({ ...current, [name]: value }));

  function submit() {
    const found = taxonomyProblem(values);
    setProblem(found);
    if (found) return;
    save.mutate(
      { ...bodyOf(kind, values), id: item?.id },
      {
        onSuccess: (saved) => {
          toast.success(texts.saved, saved.name);
          onHide();
        },
      },
    );
  }

  const input = (name: keyof FormValues, label: string, as?: 'textarea') => (
    <TextField
      controlId={`${kind}-${name}`}
      label={label}
      className="mb-3"
      as={as}
      rows={as ? 2 : undefined}
      value={values[name]}
      onChange={(event) => {
        const value = event.target.value;
        if (name === 'name' && !slugEdited) setValues((current) => ({ ...current, name: value, slug: slugify(value) }));
        else {
          if (name === 'slug') setSlugEdited(true);
          set(name, value);
        }
      }}
    />
  );

  return (
    <FormDialog
      show
      title={item ? texts.edit : texts.create}
      onHide={onHide}
      onSubmit={submit}
      saving={save.isPending}
      error={problem ?? (save.isError ? errorMessage(save.error, texts.saveFailed) : null)}
      width={kind}
    >
      {input('name', 'Название *')}
      {input('slug', 'Адрес страницы *')}
      {input('description', 'Описание', 'textarea')}
      {kind === 'category' && (
        <>
          {input('meta_title', 'Заголовок для поисковиков')}
          {input('meta_description', 'Описание для поисковиков', 'textarea')}
        </>
      )}
    </FormDialog>
  );
}

/** The category or tag management list (800px, docs/product.md, Screens and Limits): create, edit, delete with confirmation. */
export function TaxonomyManagerDialog<K extends TaxonomyKind>({
  kind,
  show,
  onHide,
}: {
  kind: K;
  show: boolean;
  onHide: () => void;
}) {
  const texts = TEXTS[kind];
  const items = useTaxonomies(kind);
  const crud = useCrudDialogs<Taxonomy<K>>();
  const deleting = useDeleteRow(crud, useDeleteTaxonomy(kind), {
    idOf: (item) => item.id,
    deleted: texts.deleted,
    nameOf: (item) => item.name,
    failed: texts.deleteFailed,
  });

  return (
    <>
      <ViewDialog
        show={show && !crud.formOpen && crud.deleted === null}
        title={texts.list}
        onHide={onHide}
        width="list"
      >
        <ErrorBanner message={items.isError ? errorMessage(items.error, 'Ошибка загрузки') : null} />
        <div className="d-flex justify-content-end mb-3">
          <AddButton size="sm" onClick={crud.create}>
            {texts.add}
          </AddButton>
        </div>
        {items.isPending ? (
          <SpinnerBlock />
        ) : (
          <Table hover responsive size="sm" className="align-middle mb-0" aria-label={texts.list}>
            <thead>
              <tr>
                <th>Название</th>
                <th>Адрес</th>
                <th>Описание</th>
                <th style={{ width: 100 }}>Действия</th>
              </tr>
            </thead>
            <tbody>
              {items.data?.length === 0 && (
                <tr>
                  <td colSpan={4} className="text-center text-body-secondary py-3">
                    {texts.empty}
                  </td>
                </tr>
              )}
              {items.data?.map((item) => (
                <tr key={item.id}>
                  <td className="fw-medium">{item.name}</td>
                  <td>
                    <code>{item.slug}</code>
                  </td>
                  <td className="small text-body-secondary">{item.description}</td>
                  <td>
                    <RowActions
                      actions={[rowAction.edit(() => crud.edit(item)), rowAction.delete(() => crud.askDelete(item))]}
                    />
                  </td>
                </tr>
              ))}
            </tbody>
          </Table>
        )}
      </ViewDialog>
      {crud.formOpen && (
        <TaxonomyFormDialog key={crud.formKey} kind={kind} item={crud.editedRow} onHide={crud.closeForm} />
      )}
      <ConfirmDialog
        {...deleting.dialog}
        title={texts.deleteTitle}
        message={
          <>
            {texts.deleteQuestion} <strong>«{crud.deleted?.name}»</strong>? {texts.detached}
          </>
        }
      />
    </>
  );
}
