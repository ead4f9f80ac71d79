import type { ArticleCard as ArticleCardData, PublicArticle } from '@gpt/contracts';
import { useEffect } from 'react';
import Badge from 'react-bootstrap/Badge';
import Col from 'react-bootstrap/Col';
import Row from 'react-bootstrap/Row';
import { Link, useParams } from 'react-router-dom';

import { EmptyState } from '@/components/ui/empty-state';
import { Icon } from '@/components/ui/icons';
import { SpinnerBlock } from '@/components/ui/spinner-block';
import { paths } from '@/config/paths';
import { useArticle } from '@/features/articles/api/get-article';
import { useCategoryOptions, useTagOptions } from '@/features/articles/api/get-taxonomy-options';
import { ArticleCard } from '@/features/articles/components/article-card';
import { ArticleShare } from '@/features/articles/components/article-share';
import { CoverImage } from '@/features/articles/components/cover-image';
import { formatDate, pluralRu } from '@/lib/dates';
import { usePageTitle } from '@/lib/use-page-title';

import { PageContainer } from '../layouts/page-container';

/** A tag or category badge linking to its list when its slug is known. */
function TaxonomyLinks({
  names,
  options,
  param,
  prefix = '',
}: {
  names: string[];
  options: { name: string; slug: string }[] | undefined;
  param: 'tag' | 'category';
  prefix?: string;
}) {
  return (
    <>
      {names.map((name) => {
        const slug = options?.find((option) => option.name === name)?.slug;
        const badge = (
          <Badge
            bg={param === 'tag' ? 'light' : 'primary-subtle'}
            text={param === 'tag' ? 'dark' : 'primary'}
            className="border"
          >
            {prefix}
            {name}
          </Badge>
        );
        return slug ? (
          <Link
            key={name}
            to={`${paths.articles}?${param}=${encodeURIComponent(slug)}`}
            className="text-decoration-none"
          >
            {badge}
          </Link>
        ) : (
          <span key={name}>{badge}</span>
        );
      })}
    </>
  );
}

function ArticleView({ article, related }: { article: PublicArticle; related: ArticleCardData[] }) {
  const categories = useCategoryOptions();
  const tags = useTagOptions();
  return (
    <>
      <article className="article-detail">
        <div className="small text-body-secondary d-flex flex-wrap gap-3 mb-2">
          <span>{formatDate(article.published_at)}</span>
          <span>{article.reading_time} мин чтения</span>
          <span className="d-inline-flex align-items-center gap-1">
            <Icon name="eye" size={16} />
            {article.view_count} {pluralRu(article.view_count, ['просмотр', 'просмотра', 'просмотров'])}
          </span>
        </div>
        <h1 className="mb-3">{article.title}</h1>
        {article.excerpt && <p className="lead text-body-secondary">{article.excerpt}</p>}
        {article.featured_image && <CoverImage src={article.featured_image} className="article-cover rounded mb-4" />}
        {/* Sanitized by the content service when the admin saved it. */}
        <div className="article-body" dangerouslySetInnerHTML={{ __html: article.content }} />
        {(article.tags.length > 0 || article.categories.length > 0) && (
          <div className="d-flex flex-wrap gap-2 align-items-center border-top pt-3 mt-4">
            <TaxonomyLinks names={article.categories} options={categories.data} param="category" />
            <TaxonomyLinks names={article.tags} options={tags.data} param="tag" prefix="#" />
          </div>
        )}
        <div className="mt-4">
          <ArticleShare title={article.title} />
        </div>
      </article>
      <section className="mt-5" aria-labelledby="related-heading">
        <h2 id="related-heading" className="h4 mb-3">
          Похожие статьи
        </h2>
        {related.length === 0 ? (
          <p className="text-body-secondary">Похожих статей пока нет.</p>
        ) : (
          <Row xs={1} md={2} className="g-4">
            {related.map((card) => (
              <Col key={card.id}>
                <ArticleCard article={card} />
              </Col>
            ))}
          </Row>
        )}
      </section>
    </>
  );
}

export function ArticlePage() {
  const { slug = '' } = useParams();
  const { data, isPending, isError, error } = useArticle(slug);
  usePageTitle(data?.article.title ?? (isPending ? 'Статьи' : 'Статья не найдена'));

  // Load failures are only logged; the page falls back to not-found (docs/product.md, Errors).
  useEffect(() => {
    if (isError) console.error('Article failed to load', error);
  }, [isError, error]);

  return (
    <PageContainer narrow>
      <nav aria-label="Навигация" className="mb-3">
        <Link to={paths.articles} className="text-decoration-none d-inline-flex align-items-center gap-1">
          <Icon name="arrowLeft" size={16} />
          Все статьи
        </Link>
      </nav>
      {isPending ? (
        <SpinnerBlock />
      ) : isError || !data ? (
        <EmptyState
          icon="article"
          title="Статья не найдена"
          actions={
            <Link to={paths.articles} className="btn btn-primary">
              К списку статей
            </Link>
          }
        />
      ) : (
        <ArticleView article={data.article} related={data.related} />
      )}
    </PageContainer>
  );
}
