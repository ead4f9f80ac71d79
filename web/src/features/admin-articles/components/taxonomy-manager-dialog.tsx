import { CategoryInput, TagInput, type RequestBody } from '@gpt/contracts';
import { useState } from 'react';
import Table from 'react-bootstrap/Table';
import type { RegisterOptions } from 'react-hook-form';
import type { z } from 'zod';

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
import { useContractForm } from '@/lib/contract-form';

import {
  type Taxonomy,
  type TaxonomyBody,
  type TaxonomyKind,
  useDeleteTaxonomy,
  useSaveTaxonomy,
  useTaxonomies,
} from '../api/taxonomies';
import { slugify } from '../slugify';

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

/** Each kind's body: a category has its own search-engine title and description. */
const SCHEMAS = { category: CategoryInput, tag: TagInput } as const;

/** The form holds a category's fields; a tag's schema leaves out the two it has not. */
type TaxonomyFormValues = RequestBody<typeof CategoryInput>;

function formOf(item: Taxonomy<TaxonomyKind> | null): TaxonomyFormValues {
  return {
    name: item?.name ?? '',
    slug: item?.slug ?? '',
    description: item?.description ?? '',
    meta_title: item && 'meta_title' in item ? (item.meta_title ?? '') : '',
    meta_description: item && 'meta_description' in item ? (item.meta_description ?? '') : '',
  };
}

/**
 * Create / edit of one category or tag (600px, docs/product.md, Limits). The contract's CategoryInput or TagInput
 * checks the fields: on a save, and then once a field was left, «Заполните обязательные поля» or another rule's text
 * shows under its field.
 */
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
  const schema = SCHEMAS[kind] as unknown as z.ZodType<TaxonomyBody<K>, TaxonomyFormValues>;
  const form = useContractForm(schema, formOf(item));
  /** A new one's slug follows its name until the admin edits the slug. */
  const [slugEdited, setSlugEdited] = useState(item !== null);

  const submit = form.handleSubmit((body) =>
    save.mutate(
      { ...body, id: item?.id },
      {
        onSuccess: (saved) => {
          toast.success(texts.saved, saved.name);
          onHide();
        },
      },
    ),
  );

  const input = (
    name: keyof TaxonomyFormValues,
    label: string,
    as?: 'textarea',
    options?: RegisterOptions<TaxonomyFormValues, keyof TaxonomyFormValues>,
  ) => (
    <TextField
      controlId={`${kind}-${name}`}
      label={label}
      className="mb-3"
      as={as}
      rows={as ? 2 : undefined}
      {...form.field(name, options)}
    />
  );

  return (
    <FormDialog
      show
      title={item ? texts.edit : texts.create}
      onHide={onHide}
      onSubmit={() => void submit()}
      saving={save.isPending}
      error={save.isError ? errorMessage(save.error, texts.saveFailed) : null}
      width={kind}
    >
      {input('name', 'Название *', undefined, {
        onChange: (event: { target: { value: string } }) => {
          if (!slugEdited) {
            form.setValue('slug', slugify(event.target.value), { shouldValidate: form.formState.isSubmitted });
          }
        },
      })}
      {input('slug', 'Адрес страницы *', undefined, { onChange: () => setSlugEdited(true) })}
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
        <ErrorBanner message={items.isError ? errorMessage(items.error, 'Ошибка загрузки.') : null} />
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
