import { z } from 'zod';
import {
  blankToUndefined,
  Id,
  IdParam,
  IsoDateTime,
  limitParam,
  listQuery,
  nullableLink,
  nullableText,
  PageParam,
  Pagination,
  requiredText,
  SerialId,
} from './common';

/**
 * Content service: public articles, categories, tags, the contact form and the admin article
 * screens. Public cards carry tags and categories as names; admin reads carry objects with ids.
 */

/** The text for a missing title, slug, content, or category/tag name and slug (docs/product.md, Validation). */
export const REQUIRED_FIELDS_MESSAGE = 'Заполните обязательные поля';

export const PUBLIC_ARTICLES_PAGE_SIZE = 12;
/** A larger `limit` on the public lists is lowered to this. */
export const PUBLIC_ARTICLES_MAX_LIMIT = 50;

export const ArticleStatus = z.enum(['draft', 'published', 'archived'], {
  error: 'Статус статьи: draft, published или archived',
});
export type ArticleStatus = z.infer<typeof ArticleStatus>;

/** A slug as stored: lowercase latin letters, digits and single hyphens. */
export const Slug = z
  .string({ error: REQUIRED_FIELDS_MESSAGE })
  .trim()
  .min(1, { error: REQUIRED_FIELDS_MESSAGE, abort: true })
  .max(200, { error: 'Slug должен быть не длиннее 200 символов', abort: true })
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, {
    error: 'Slug может содержать только строчные латинские буквы, цифры и дефисы',
  });
export type Slug = z.infer<typeof Slug>;

export const SlugParams = z.object({ slug: z.string().min(1).max(200) });
export type SlugParams = z.infer<typeof SlugParams>;

// ---------------------------------------------------------------------------------------------
// Categories and tags

export const ArticleCategory = z
  .object({
    id: Id,
    name: z.string(),
    slug: z.string(),
    description: z.string().nullable(),
    meta_title: z.string().nullable(),
    meta_description: z.string().nullable(),
  })
  .meta({ id: 'ArticleCategory' });
export type ArticleCategory = z.infer<typeof ArticleCategory>;

export const ArticleTag = z
  .object({ id: Id, name: z.string(), slug: z.string(), description: z.string().nullable() })
  .meta({ id: 'ArticleTag' });
export type ArticleTag = z.infer<typeof ArticleTag>;

/** A category or tag attached to an article on admin reads. */
export const TaxonomyRef = z.object({ id: Id, name: z.string(), slug: z.string() }).meta({ id: 'TaxonomyRef' });
export type TaxonomyRef = z.infer<typeof TaxonomyRef>;

/**
 * A category or tag in a select list (spec: name, slug; id added for the article form), the most
 * used first: `article_count` published articles carry it (the list page's popular tags).
 */
export const SelectOption = TaxonomyRef.extend({
  article_count: z.int().min(0).meta({ description: 'Published articles with it' }),
}).meta({ id: 'SelectOption' });
export type SelectOption = z.infer<typeof SelectOption>;

export const CategoryInput = z
  .object({
    name: requiredText(200, REQUIRED_FIELDS_MESSAGE),
    slug: Slug,
    description: nullableText(2000),
    meta_title: nullableText(300),
    meta_description: nullableText(1000),
  })
  .meta({ id: 'CategoryInput' });
export type CategoryInput = z.infer<typeof CategoryInput>;

export const TagInput = z
  .object({
    name: requiredText(100, REQUIRED_FIELDS_MESSAGE),
    slug: Slug,
    description: nullableText(2000),
  })
  .meta({ id: 'TagInput' });
export type TagInput = z.infer<typeof TagInput>;

export const CategorySelectResponse = z
  .object({ success: z.literal(true), categories: z.array(SelectOption) })
  .meta({ id: 'CategorySelectResponse' });
export type CategorySelectResponse = z.infer<typeof CategorySelectResponse>;

export const TagSelectResponse = z
  .object({ success: z.literal(true), tags: z.array(SelectOption) })
  .meta({ id: 'TagSelectResponse' });
export type TagSelectResponse = z.infer<typeof TagSelectResponse>;

export const AdminCategoriesResponse = z
  .object({ success: z.literal(true), categories: z.array(ArticleCategory) })
  .meta({ id: 'AdminCategoriesResponse' });
export type AdminCategoriesResponse = z.infer<typeof AdminCategoriesResponse>;

export const AdminTagsResponse = z
  .object({ success: z.literal(true), tags: z.array(ArticleTag) })
  .meta({ id: 'AdminTagsResponse' });
export type AdminTagsResponse = z.infer<typeof AdminTagsResponse>;

export const CategoryResponse = z
  .object({ success: z.literal(true), category: ArticleCategory })
  .meta({ id: 'CategoryResponse' });
export type CategoryResponse = z.infer<typeof CategoryResponse>;

export const TagResponse = z.object({ success: z.literal(true), tag: ArticleTag }).meta({ id: 'TagResponse' });
export type TagResponse = z.infer<typeof TagResponse>;

// ---------------------------------------------------------------------------------------------
// Public articles

/** An article card of the public list (tags and categories as names). */
export const ArticleCard = z
  .object({
    id: Id,
    slug: z.string(),
    title: z.string(),
    excerpt: z.string().nullable(),
    featured_image: z.string().nullable(),
    reading_time: z.int().min(1).meta({ description: 'Minutes' }),
    view_count: z.int().min(0),
    published_at: IsoDateTime,
    author_first_name: z.string().nullable(),
    author_last_name: z.string().nullable(),
    author_username: z.string().nullable(),
    tags: z.array(z.string()),
    categories: z.array(z.string()),
  })
  .meta({ id: 'ArticleCard' });
export type ArticleCard = z.infer<typeof ArticleCard>;

/** A published article as the detail page reads it. */
export const PublicArticle = ArticleCard.extend({
  content: z.string().meta({ description: 'Sanitized HTML' }),
  meta_title: z.string().nullable(),
  meta_description: z.string().nullable(),
  meta_keywords: z.string().nullable(),
  og_title: z.string().nullable(),
  og_description: z.string().nullable(),
  og_image: z.string().nullable(),
  canonical_url: z.string().nullable(),
}).meta({ id: 'PublicArticle' });
export type PublicArticle = z.infer<typeof PublicArticle>;

/** `GET /api/articles`, `/category/{slug}`, `/tag/{slug}`: page size 12 by default, capped at 50. */
export const ArticlesQuery = z.object({
  page: PageParam,
  limit: z.preprocess(
    (value) => {
      const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
      return typeof number === 'number' && number > PUBLIC_ARTICLES_MAX_LIMIT ? PUBLIC_ARTICLES_MAX_LIMIT : value;
    },
    limitParam(PUBLIC_ARTICLES_PAGE_SIZE, PUBLIC_ARTICLES_MAX_LIMIT),
  ),
});
export type ArticlesQuery = z.infer<typeof ArticlesQuery>;

/** `GET /api/articles/search`: a blank `q` answers an empty list, not an error. */
export const ArticleSearchQuery = ArticlesQuery.extend({
  q: z.preprocess(
    (value) => (value === undefined ? '' : value),
    z.string({ error: 'Ожидается строка' }).trim().max(200, { error: 'Не более 200 символов' }),
  ),
});
export type ArticleSearchQuery = z.infer<typeof ArticleSearchQuery>;

export const ArticlesListResponse = z
  .object({ success: z.literal(true), articles: z.array(ArticleCard), pagination: Pagination })
  .meta({ id: 'ArticlesListResponse' });
export type ArticlesListResponse = z.infer<typeof ArticlesListResponse>;

export const ArticleDetailResponse = z
  .object({
    success: z.literal(true),
    article: PublicArticle,
    related: z.array(ArticleCard).meta({ description: 'Published articles sharing a category or tag' }),
  })
  .meta({ id: 'ArticleDetailResponse' });
export type ArticleDetailResponse = z.infer<typeof ArticleDetailResponse>;

// ---------------------------------------------------------------------------------------------
// Admin articles

/** An article as the admin screens read it (every docs/product.md, Data field; categories and tags with ids). */
export const AdminArticle = z
  .object({
    id: Id,
    slug: z.string(),
    title: z.string(),
    excerpt: z.string().nullable(),
    content: z.string(),
    meta_title: z.string().nullable(),
    meta_description: z.string().nullable(),
    meta_keywords: z.string().nullable(),
    og_title: z.string().nullable(),
    og_description: z.string().nullable(),
    og_image: z.string().nullable(),
    canonical_url: z.string().nullable(),
    status: ArticleStatus,
    featured_image: z.string().nullable(),
    reading_time: z.int().min(1),
    view_count: z.int().min(0),
    published_at: IsoDateTime.nullable(),
    category_ids: z.array(Id),
    tag_ids: z.array(Id),
    categories: z.array(TaxonomyRef),
    tags: z.array(TaxonomyRef),
    author_id: Id.nullable(),
    author_first_name: z.string().nullable(),
    author_last_name: z.string().nullable(),
    author_username: z.string().nullable(),
    created_at: IsoDateTime,
    updated_at: IsoDateTime,
  })
  .meta({ id: 'AdminArticle' });
export type AdminArticle = z.infer<typeof AdminArticle>;

/**
 * Body of `POST /api/admin/articles` and `PUT /api/admin/articles/{id}` (the whole article).
 * `reading_time` is computed from the text when missing; `published_at` is set on first
 * publication when missing.
 */
export const ArticleInput = z
  .object({
    title: requiredText(300, REQUIRED_FIELDS_MESSAGE),
    slug: Slug,
    content: requiredText(500_000, REQUIRED_FIELDS_MESSAGE, 'Статья слишком длинная'),
    excerpt: nullableText(1000),
    meta_title: nullableText(300),
    meta_description: nullableText(1000),
    meta_keywords: nullableText(500),
    og_title: nullableText(300),
    og_description: nullableText(1000),
    og_image: nullableLink(),
    canonical_url: nullableLink(),
    status: ArticleStatus.default('draft'),
    featured_image: nullableLink(),
    reading_time: z
      .int({ error: 'Время чтения должно быть целым числом минут' })
      .min(1, { error: 'Время чтения должно быть не меньше 1 минуты' })
      .max(1000, { error: 'Время чтения должно быть не больше 1000 минут' })
      .nullish()
      .transform((value) => value ?? null),
    published_at: IsoDateTime.nullish().transform((value) => value ?? null),
    category_ids: z.array(SerialId).max(50, { error: 'Не более 50 категорий' }).default([]),
    tag_ids: z.array(SerialId).max(100, { error: 'Не более 100 тегов' }).default([]),
  })
  .meta({ id: 'ArticleInput' });
export type ArticleInput = z.infer<typeof ArticleInput>;

export const ArticleCreateRequest = ArticleInput;
export type ArticleCreateRequest = ArticleInput;
export const ArticleUpdateRequest = ArticleInput;
export type ArticleUpdateRequest = ArticleInput;

export const ADMIN_ARTICLES_SORT_FIELDS = [
  'id',
  'title',
  'slug',
  'status',
  'view_count',
  'reading_time',
  'published_at',
  'created_at',
  'updated_at',
] as const;
export const AdminArticlesSortField = z.enum(ADMIN_ARTICLES_SORT_FIELDS);
export type AdminArticlesSortField = z.infer<typeof AdminArticlesSortField>;

/** `GET /api/admin/articles`: default sort id ascending. */
export const AdminArticlesQuery = listQuery({
  sortFields: ADMIN_ARTICLES_SORT_FIELDS,
  defaultSort: { field: 'id', order: 'asc' },
});
export type AdminArticlesQuery = z.infer<typeof AdminArticlesQuery>;

export const AdminArticlesResponse = z
  .object({ articles: z.array(AdminArticle), total: z.int().min(0) })
  .meta({ id: 'AdminArticlesResponse' });
export type AdminArticlesResponse = z.infer<typeof AdminArticlesResponse>;

export const AdminArticleResponse = z
  .object({ success: z.literal(true), article: AdminArticle })
  .meta({ id: 'AdminArticleResponse' });
export type AdminArticleResponse = z.infer<typeof AdminArticleResponse>;

export const ArticleIdParams = z.object({ id: IdParam });
export type ArticleIdParams = z.infer<typeof ArticleIdParams>;

// ---------------------------------------------------------------------------------------------
// Images in an article's body

/** An image uploaded for an article's body is at most 5 MB. */
export const ARTICLE_IMAGE_MAX_BYTES = 5 * 1024 * 1024;

/** Where the article images are served: `${ARTICLE_MEDIA_PATH}/{id}`, the only images an article's HTML may show. */
export const ARTICLE_MEDIA_PATH = '/api/article_media';

/** The id of an uploaded image: random, 32 hex digits. */
export const ARTICLE_MEDIA_ID = /^[a-f0-9]{32}$/;

export const ArticleMediaIdParams = z.object({
  id: z.string().regex(ARTICLE_MEDIA_ID, { error: 'Изображение не найдено' }),
});
export type ArticleMediaIdParams = z.infer<typeof ArticleMediaIdParams>;

/** `POST /api/admin/article_media` (multipart/form-data, the file in `image`): where the image is served. */
export const ArticleImageResponse = z
  .object({ success: z.literal(true), url: z.string() })
  .meta({ id: 'ArticleImageResponse' });
export type ArticleImageResponse = z.infer<typeof ArticleImageResponse>;

// ---------------------------------------------------------------------------------------------
// Contact form

/**
 * `POST /api/feedback`: all three fields required (docs/product.md, Validation); an e-mail to answer to
 * is optional. Sent with a signed-in user's token, the request is theirs (answered in their account).
 */
export const FeedbackRequest = z
  .object({
    telegram: requiredText(100, 'Укажите Telegram для ответа'),
    subject: requiredText(200, 'Укажите тему'),
    message: requiredText(5000, 'Напишите сообщение'),
    email: z.preprocess(
      blankToUndefined,
      z
        .string()
        .trim()
        .toLowerCase()
        .max(254, { error: 'E-mail не длиннее 254 символов' })
        .email({ error: 'Некорректный e-mail для ответа' })
        .optional(),
    ),
  })
  .meta({ id: 'FeedbackRequest' });
export type FeedbackRequest = z.infer<typeof FeedbackRequest>;

export const Feedback = z
  .object({ id: Id, telegram: z.string(), subject: z.string(), message: z.string(), created_at: IsoDateTime })
  .meta({ id: 'Feedback' });
export type Feedback = z.infer<typeof Feedback>;

/** How an answer reaches the person: the bot (their account has Telegram linked) or an e-mail. */
export const SupportChannel = z.enum(['telegram', 'email']);
export type SupportChannel = z.infer<typeof SupportChannel>;

export const SupportStatus = z.enum(['new', 'done'], { error: 'Статус обращения: new или done' });
export type SupportStatus = z.infer<typeof SupportStatus>;

/** A contact-form message as the admin's «Обращения» reads it. */
export const SupportRequest = z
  .object({
    id: Id,
    telegram: z.string(),
    email: z.string().nullable(),
    subject: z.string(),
    message: z.string(),
    user_id: Id.nullable().meta({ description: 'The signed-in user who sent it' }),
    user_email: z.string().nullable(),
    user_name: z.string().nullable(),
    status: SupportStatus,
    answer: z.string().nullable(),
    answered_via: SupportChannel.nullable(),
    answered_at: IsoDateTime.nullable(),
    /** Where an answer would go now (null: nowhere in the product; write to `telegram` by hand). */
    answer_channel: SupportChannel.nullable(),
    created_at: IsoDateTime,
  })
  .meta({ id: 'SupportRequest' });
export type SupportRequest = z.infer<typeof SupportRequest>;

/** `GET /api/admin/support-requests`: new ones first, then the newest. */
export const AdminSupportRequestsQuery = z.object({
  page: PageParam,
  limit: limitParam(10, 50),
  status: z.preprocess(blankToUndefined, SupportStatus.optional()),
});
export type AdminSupportRequestsQuery = z.infer<typeof AdminSupportRequestsQuery>;

export const AdminSupportRequestsResponse = z
  .object({ data: z.array(SupportRequest), total: z.int().min(0), unread: z.int().min(0) })
  .meta({ id: 'AdminSupportRequestsResponse' });
export type AdminSupportRequestsResponse = z.infer<typeof AdminSupportRequestsResponse>;

/** The admin menu's badge: how many requests nobody has handled yet. */
export const SupportUnreadResponse = z.object({ unread: z.int().min(0) }).meta({ id: 'SupportUnreadResponse' });
export type SupportUnreadResponse = z.infer<typeof SupportUnreadResponse>;

export const SupportRequestParams = z.object({ id: IdParam });

/** `POST /api/admin/support-requests/{id}/answer`. */
export const SupportAnswerRequest = z
  .object({ answer: requiredText(5000, 'Напишите ответ') })
  .meta({ id: 'SupportAnswerRequest' });
export type SupportAnswerRequest = z.infer<typeof SupportAnswerRequest>;

export const SupportRequestResponse = z
  .object({ success: z.literal(true), support_request: SupportRequest })
  .meta({ id: 'SupportRequestResponse' });
export type SupportRequestResponse = z.infer<typeof SupportRequestResponse>;

/** `GET /api/feedback/mine`: the signed-in user's requests with their answers, newest first. */
export const MySupportRequest = SupportRequest.pick({
  id: true,
  subject: true,
  message: true,
  status: true,
  answer: true,
  answered_at: true,
  created_at: true,
}).meta({ id: 'MySupportRequest' });
export type MySupportRequest = z.infer<typeof MySupportRequest>;

export const MySupportRequestsResponse = z
  .object({ requests: z.array(MySupportRequest) })
  .meta({ id: 'MySupportRequestsResponse' });
export type MySupportRequestsResponse = z.infer<typeof MySupportRequestsResponse>;

// ---------------------------------------------------------------------------------------------
// Internal (gateway → content under /internal, never routed by the gateway)

/** The head of `/articles/{slug}` for crawlers and link previews, fallbacks already applied. */
export const ArticleSeo = z
  .object({
    slug: z.string(),
    title: z.string().meta({ description: 'meta_title, else title' }),
    description: z.string().meta({ description: 'meta_description, else excerpt, else the start of the text' }),
    keywords: z.string().nullable(),
    og_title: z.string().meta({ description: 'og_title, else the title above' }),
    og_description: z.string().meta({ description: 'og_description, else the description above' }),
    og_image: z.string().nullable().meta({ description: 'og_image, else featured_image' }),
    canonical_url: z.string().nullable().meta({ description: 'Absent: the gateway uses the page address' }),
    published_at: IsoDateTime,
    updated_at: IsoDateTime,
  })
  .meta({ id: 'ArticleSeo' });
export type ArticleSeo = z.infer<typeof ArticleSeo>;

export const ArticleSeoResponse = z.object({ article: ArticleSeo });
export type ArticleSeoResponse = z.infer<typeof ArticleSeoResponse>;

/** Published articles for /sitemap.xml. */
export const SitemapArticlesResponse = z.object({
  articles: z.array(z.object({ slug: z.string(), updated_at: IsoDateTime })),
});
export type SitemapArticlesResponse = z.infer<typeof SitemapArticlesResponse>;
