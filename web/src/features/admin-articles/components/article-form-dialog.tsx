import type { AdminArticle, ArticleStatus } from '@gpt/contracts';
import { useRef, useState, type ReactNode } from 'react';
import Col from 'react-bootstrap/Col';
import Form from 'react-bootstrap/Form';
import Row from 'react-bootstrap/Row';

import { FormDialog } from '@/components/ui/form-dialog';
import { Field, TextField } from '@/components/ui/form-field';

import type { ArticleBody } from '../api/save-article';
import { useTaxonomies, type TaxonomyKind } from '../api/taxonomies';
import { ARTICLE_STATUSES } from '../article-status';
import { SLUG_PATTERN, slugify } from '../slugify';
import { articleProblem } from '../validation';
import { RichTextEditor } from './rich-text-editor';

interface ArticleFormValues {
  title: string;
  slug: string;
  excerpt: string;
  content: string;
  status: ArticleStatus;
  published_at: string;
  reading_time: string;
  featured_image: string;
  category_ids: number[];
  tag_ids: number[];
  meta_title: string;
  meta_description: string;
  meta_keywords: string;
  og_title: string;
  og_description: string;
  og_image: string;
  canonical_url: string;
}

type TextName = Exclude<keyof ArticleFormValues, 'status' | 'category_ids' | 'tag_ids'>;

/** `2025-06-24T12:00:00.000Z` → `2025-06-24T15:00` in the browser's zone, as datetime-local wants it. */
function toLocalInput(iso: string | null): string {
  if (!iso) return '';
  const date = new Date(iso);
  const local = new Date(date.getTime() - date.getTimezoneOffset() * 60_000);
  return local.toISOString().slice(0, 16);
}

function formOf(article: AdminArticle | null): ArticleFormValues {
  return {
    title: article?.title ?? '',
    slug: article?.slug ?? '',
    excerpt: article?.excerpt ?? '',
    content: article?.content ?? '',
    status: article?.status ?? 'draft',
    published_at: toLocalInput(article?.published_at ?? null),
    reading_time: article ? String(article.reading_time) : '',
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

function bodyOf(values: ArticleFormValues): ArticleBody {
  const text = (value: string) => value.trim() || null;
  return {
    title: values.title.trim(),
    slug: values.slug.trim(),
    content: values.content,
    excerpt: text(values.excerpt),
    status: values.status,
    published_at: values.published_at ? new Date(values.published_at).toISOString() : null,
    reading_time: values.reading_time.trim() ? Number(values.reading_time) : null,
    featured_image: text(values.featured_image),
    category_ids: values.category_ids,
    tag_ids: values.tag_ids,
    meta_title: text(values.meta_title),
    meta_description: text(values.meta_description),
    meta_keywords: text(values.meta_keywords),
    og_title: text(values.og_title),
    og_description: text(values.og_description),
    og_image: text(values.og_image),
    canonical_url: text(values.canonical_url),
  };
}

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
 * tags. Mount it with a key of the edited article so the fields start from it.
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
  const titleRef = useRef<HTMLInputElement>(null);
  const [values, setValues] = useState<ArticleFormValues>(() => formOf(article));
  /** A new article's slug follows its title until the admin edits the slug. */
  const [slugEdited, setSlugEdited] = useState(article !== null);
  /** After a first save attempt the form says what is still missing, and stops once it is filled. */
  const [tried, setTried] = useState(false);
  const problem = tried ? articleProblem(values) : null;
  const set = <K extends keyof ArticleFormValues>(name: K, value: ArticleFormValues[K]) =>
    setValues((current) => ({ ...current, [name]: value }));

  const field = (name: TextName, label: ReactNode, options: { as?: 'textarea'; type?: string; hint?: string } = {}) => (
    <TextField
      controlId={`article-${name}`}
      label={label}
      className="mb-3"
      as={options.as}
      rows={options.as ? 2 : undefined}
      type={options.type}
      hint={options.hint}
      value={values[name]}
      onChange={(event) => set(name, event.target.value)}
    />
  );

  function submit() {
    setTried(true);
    if (!articleProblem(values)) onSave(bodyOf(values));
  }

  return (
    <FormDialog
      show={show}
      title={article ? 'Редактировать статью' : 'Новая статья'}
      onHide={onHide}
      onSubmit={submit}
      onEntered={() => titleRef.current?.focus()}
      saving={saving}
      error={problem ?? error}
      width="article"
    >
      <Row className="g-4">
        <Col lg={8}>
          <Field controlId="article-title" label="Заголовок *" className="mb-3">
            <Form.Control
              ref={titleRef}
              value={values.title}
              isInvalid={problem !== null && !values.title.trim()}
              onChange={(event) => {
                const title = event.target.value;
                setValues((current) => ({ ...current, title, slug: slugEdited ? current.slug : slugify(title) }));
              }}
            />
          </Field>
          <Field
            controlId="article-slug"
            label="Адрес страницы *"
            className="mb-3"
            hint={<>Адрес статьи: /articles/{values.slug || '…'}. Строчные латинские буквы, цифры и дефисы.</>}
          >
            <Form.Control
              value={values.slug}
              isInvalid={problem !== null && !SLUG_PATTERN.test(values.slug.trim())}
              onChange={(event) => {
                setSlugEdited(true);
                set('slug', event.target.value);
              }}
            />
          </Field>
          {field('excerpt', 'Анонс', { as: 'textarea' })}
          <Form.Group className="mb-3">
            <Form.Label id="article-content-label">Содержание *</Form.Label>
            <RichTextEditor
              label="Содержание статьи"
              initialHtml={values.content}
              invalid={problem !== null && !values.content.trim()}
              onChange={(html) => set('content', html)}
            />
          </Form.Group>
        </Col>
        <Col lg={4}>
          <Field controlId="article-status" label="Статус" className="mb-3">
            <Form.Select value={values.status} onChange={(event) => set('status', event.target.value as ArticleStatus)}>
              {ARTICLE_STATUSES.map((status) => (
                <option key={status.value} value={status.value}>
                  {status.label}
                </option>
              ))}
            </Form.Select>
          </Field>
          {field('published_at', 'Дата публикации', {
            type: 'datetime-local',
            hint: 'Пусто — при первой публикации',
          })}
          <TextField
            controlId="article-reading_time"
            label="Время чтения, мин"
            className="mb-3"
            hint="Пусто — посчитать по тексту"
            type="number"
            min={1}
            step={1}
            value={values.reading_time}
            onChange={(event) => set('reading_time', event.target.value)}
          />
          {field('featured_image', 'Обложка (URL)', { type: 'url' })}
          <TaxonomyChecks
            kind="category"
            legend="Категории"
            selected={values.category_ids}
            onChange={(ids) => set('category_ids', ids)}
          />
          <TaxonomyChecks kind="tag" legend="Теги" selected={values.tag_ids} onChange={(ids) => set('tag_ids', ids)} />
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
