import { AppError, badRequest, conflict, notFound, payloadTooLarge } from '@gpt/kit';
import { REQUIRED_FIELDS_MESSAGE } from '@gpt/contracts';
import type { TaxonomyKind } from '../data/taxonomies.repository';

const taxonomy = {
  category: {
    notFound: () => notFound('Категория не найдена', 'category_not_found'),
    nameTaken: () => conflict('Категория с таким названием уже существует', 'category_name_taken'),
    slugTaken: () => conflict('Категория с таким slug уже существует', 'category_slug_taken'),
  },
  tag: {
    notFound: () => notFound('Тег не найден', 'tag_not_found'),
    nameTaken: () => conflict('Тег с таким названием уже существует', 'tag_name_taken'),
    slugTaken: () => conflict('Тег с таким slug уже существует', 'tag_slug_taken'),
  },
} satisfies Record<TaxonomyKind, Record<'notFound' | 'nameTaken' | 'slugTaken', () => AppError>>;

/** The content service's refusals, each with the sentence a person reads. */
export const contentErrors = {
  articleNotFound: () => notFound('Статья не найдена', 'article_not_found'),
  articleSlugTaken: () => conflict('Статья с таким slug уже существует', 'slug_taken'),
  articleFieldsMissing: () => badRequest(REQUIRED_FIELDS_MESSAGE, 'validation_error'),
  unknownCategories: (ids: number[]) => badRequest(`Категория не найдена: ${ids.join(', ')}`, 'category_not_found'),
  unknownTags: (ids: number[]) => badRequest(`Тег не найден: ${ids.join(', ')}`, 'tag_not_found'),
  /** A category's or a tag's own refusals. */
  taxonomy,
  imageNotFound: () => notFound('Изображение не найдено', 'image_not_found'),
  imageTooLarge: () => payloadTooLarge('Файл слишком большой (не больше 5 МБ)'),
  imageRequired: () => badRequest('Выберите изображение', 'image_required'),
  imageNotMultipart: () =>
    new AppError('Ожидается multipart/form-data с файлом в поле image', 'unsupported_media_type', 415),
};
