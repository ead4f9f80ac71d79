import { ArticleInput, type AdminArticle, type RequestBody } from '@gpt/contracts';
import { useState } from 'react';
import Col from 'react-bootstrap/Col';
import Form from 'react-bootstrap/Form';
import Row from 'react-bootstrap/Row';
import { Controller } from 'react-hook-form';

import { FormDialog } from '@/components/ui/form-dialog';
import { DateTimeField, Field, TextField } from '@/components/ui/form-field';
import { numberInput, useContractForm } from '@/lib/contract-form';

import type { ArticleBody } from '../api/save-article';
import { useTaxonomies, type TaxonomyKind } from '../api/taxonomies';
import { ARTICLE_STATUSES } from '../article-status';
import { slugify } from '../slugify';
import { RichTextEditor } from './rich-text-editor';

type ArticleFormValues = RequestBody<typeof ArticleInput>;

function formOf(article: AdminArticle | null): ArticleFormValues {
  return {
    title: article?.title ?? '',
    slug: article?.slug ?? '',
    excerpt: article?.excerpt ?? '',
    content: article?.content ?? '',
    status: article?.status ?? 'draft',
    published_at: article?.published_at ?? null,
    reading_time: article?.reading_time ?? null,
    featured_image: article?.featured_image ?? '',
    category_ids: article?.category_ids ?? [],
    tag_ids: article?.tag_ids ?? [],
    meta_title: article?.meta_title ?? '',
    meta_description: article?.meta_description ?? '',
    meta_keywords: article?.meta_keywords ?? '',
    og_title: article?.og_title ?? '',
    og_description: article?.og_description ?? '',
    og_image: article?.og_image ?? '',
    canonical_url: article?.canonical_url ?? '',
  };
}

type TextName = 'excerpt' | 'featured_image' | SeoName;
type SeoName =
  'meta_title' | 'meta_description' | 'meta_keywords' | 'og_title' | 'og_description' | 'og_image' | 'canonical_url';

/** Checkboxes of every category or tag. */
function TaxonomyChecks({
  kind,
  legend,
  selected,
  onChange,
}: {
  kind: TaxonomyKind;
  legend: string;
  selected: number[];
  onChange: (ids: number[]) => void;
}) {
  const options = useTaxonomies(kind);
  return (
    <fieldset className="mb-3">
      <legend className="form-label fs-6 mb-1">{legend}</legend>
      <div className="article-form-checks border rounded p-2">
        {options.isPending && <span className="small text-body-secondary">Загрузка…</span>}
        {options.data?.length === 0 && <span className="small text-body-secondary">Пока нет ни одного</span>}
        {options.data?.map((option) => (
          <Form.Check
            key={option.id}
            id={`article-${kind}-${option.id}`}
            label={option.name}
            checked={selected.includes(option.id)}
            onChange={(event) =>
              onChange(event.target.checked ? [...selected, option.id] : selected.filter((id) => id !== option.id))
            }
          />
        ))}
      </div>
    </fieldset>
  );
}

/**
 * Create / edit dialog of an article (docs/product.md, Screens, Data and Validation): every field, the rich-text body, categories and
 * tags. Mount it with a key of the edited article so the fields start from it. The contract's ArticleInput checks the
 * fields once a save was tried: «Заполните обязательные поля» or another rule's text shows under each field that
 * breaks one, and goes away as soon as the field is put right.
 */
export function ArticleFormDialog({
  show,
  article,
  saving,
  error,
  onHide,
  onSave,
}: {
  show: boolean;
  /** null: a new article. */
  article: AdminArticle | null;
  saving: boolean;
  error: string | null;
  onHide: () => void;
  onSave: (body: ArticleBody) => void;
}) {
  const form = useContractForm(ArticleInput, formOf(article), 'onSubmit');
  /** A new article's slug follows its title until the admin edits the slug. */
  const [slugEdited, setSlugEdited] = useState(article !== null);
  const slug = form.watch('slug');
  const contentProblem = form.message('content');

  const field = (name: TextName, label: string, options: { as?: 'textarea'; type?: string; hint?: string } = {}) => (
    <TextField
      controlId={`article-${name}`}
      label={label}
      className="mb-3"
      as={options.as}
      rows={options.as ? 2 : undefined}
      type={options.type}
      hint={options.hint}
      {...form.field(name)}
    />
  );

  return (
    <FormDialog
      show={show}
      title={article ? 'Редактировать статью' : 'Новая статья'}
      onHide={onHide}
      onSubmit={() => void form.handleSubmit(onSave)()}
      onEntered={() => form.setFocus('title')}
      saving={saving}
      error={error}
      width="article"
    >
      <Row className="g-4">
        <Col lg={8}>
          <TextField
            controlId="article-title"
            label="Заголовок *"
            className="mb-3"
            {...form.field('title', {
              onChange: (event: { target: { value: string } }) => {
                if (!slugEdited) {
                  form.setValue('slug', slugify(event.target.value), { shouldValidate: form.formState.isSubmitted });
                }
              },
            })}
          />
          <TextField
            controlId="article-slug"
            label="Адрес страницы *"
            className="mb-3"
            hint={<>Адрес статьи: /articles/{slug || '…'}. Строчные латинские буквы, цифры и дефисы.</>}
            {...form.field('slug', { onChange: () => setSlugEdited(true) })}
          />
          {field('excerpt', 'Анонс', { as: 'textarea' })}
          <Form.Group className="mb-3">
            <Form.Label id="article-content-label">Содержание *</Form.Label>
            <Controller
              control={form.control}
              name="content"
              render={({ field: content }) => (
                <RichTextEditor
                  label="Содержание статьи"
                  initialHtml={content.value}
                  invalid={Boolean(contentProblem)}
                  onChange={content.onChange}
                />
              )}
            />
            {contentProblem && <Form.Control.Feedback type="invalid">{contentProblem}</Form.Control.Feedback>}
          </Form.Group>
        </Col>
        <Col lg={4}>
          <Field controlId="article-status" label="Статус" className="mb-3">
            <Form.Select {...form.register('status')}>
              {ARTICLE_STATUSES.map((status) => (
                <option key={status.value} value={status.value}>
                  {status.label}
                </option>
              ))}
            </Form.Select>
          </Field>
          <Controller
            control={form.control}
            name="published_at"
            render={({ field: publishedAt }) => (
              <DateTimeField
                controlId="article-published_at"
                label="Дата публикации"
                className="mb-3"
                hint="Пусто — при первой публикации"
                {...publishedAt}
                error={form.message('published_at')}
              />
            )}
          />
          <TextField
            controlId="article-reading_time"
            label="Время чтения, мин"
            className="mb-3"
            hint="Пусто — посчитать по тексту"
            type="number"
            min={1}
            step={1}
            // Empty is null: the server counts the reading time from the text.
            {...form.field('reading_time', numberInput(null))}
          />
          {field('featured_image', 'Обложка (URL)', { type: 'url' })}
          {(['category_ids', 'tag_ids'] as const).map((name) => (
            <Controller
              key={name}
              control={form.control}
              name={name}
              render={({ field: ids }) => (
                <TaxonomyChecks
                  kind={name === 'category_ids' ? 'category' : 'tag'}
                  legend={name === 'category_ids' ? 'Категории' : 'Теги'}
                  selected={ids.value ?? []}
                  onChange={ids.onChange}
                />
              )}
            />
          ))}
        </Col>
      </Row>
      <fieldset className="border-top pt-3">
        <legend className="h6">SEO и соцсети</legend>
        <Row className="g-3">
          <Col md={6}>
            {field('meta_title', 'Заголовок для поисковиков')}
            {field('meta_description', 'Описание для поисковиков', { as: 'textarea' })}
            {field('meta_keywords', 'Ключевые слова', { hint: 'Через запятую' })}
            {field('canonical_url', 'Канонический адрес (URL)', { type: 'url' })}
          </Col>
          <Col md={6}>
            {field('og_title', 'Заголовок для соцсетей')}
            {field('og_description', 'Описание для соцсетей', { as: 'textarea' })}
            {field('og_image', 'Картинка для соцсетей (URL)', { type: 'url' })}
          </Col>
        </Row>
      </fieldset>
    </FormDialog>
  );
}
