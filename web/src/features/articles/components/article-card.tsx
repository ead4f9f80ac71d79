import type { ArticleCard as ArticleCardData } from '@gpt/contracts';
import Badge from 'react-bootstrap/Badge';
import Card from 'react-bootstrap/Card';
import { Link } from 'react-router-dom';

import { paths } from '@/config/paths';
import { formatRelativeDate } from '@/lib/dates';
import { useTagOptions } from '../api/get-taxonomy-options';
import { CoverImage } from './cover-image';

/** Card limits of docs/product.md, Limits. */
export const CARD_MAX_TAGS = 3;
export const CARD_MAX_CATEGORIES = 2;

/** A list card: at most 2 categories and 3 tags, '+N' for the other tags (docs/product.md, Screens). */
export function ArticleCard({ article }: { article: ArticleCardData }) {
  const categories = article.categories.slice(0, CARD_MAX_CATEGORIES);
  const tags = article.tags.slice(0, CARD_MAX_TAGS);
  const moreTags = article.tags.length - tags.length;
  const tagOptions = useTagOptions();
  return (
    <Card className="article-card h-100" data-testid="article-card">
      {article.featured_image && (
        <CoverImage src={article.featured_image} className="card-img-top article-card-cover" />
      )}
      <Card.Body className="d-flex flex-column p-4">
        {categories.length > 0 && (
          <div className="d-flex flex-wrap gap-1 mb-2">
            {categories.map((category) => (
              <Badge key={category} bg="primary-subtle" text="primary" className="article-card-category">
                {category}
              </Badge>
            ))}
          </div>
        )}
        <h2 className="h5">
          <Link to={paths.article(article.slug)} className="stretched-link text-reset text-decoration-none">
            {article.title}
          </Link>
        </h2>
        {article.excerpt && <p className="text-body-secondary">{article.excerpt}</p>}
        <div className="mt-auto">
          {tags.length > 0 && (
            <div className="d-flex flex-wrap gap-1 mb-2">
              {tags.map((tag) => {
                const badge = (
                  <Badge bg="light" text="dark" className="border article-card-tag">
                    #{tag}
                  </Badge>
                );
                const slug = tagOptions.data?.find((option) => option.name === tag)?.slug;
                // Above the card's stretched title link, so the tag opens its own list.
                return slug ? (
                  <Link
                    key={tag}
                    to={`${paths.articles}?tag=${encodeURIComponent(slug)}`}
                    className="article-card-tag-link"
                  >
                    {badge}
                  </Link>
                ) : (
                  <span key={tag}>{badge}</span>
                );
              })}
              {moreTags > 0 && (
                <Badge bg="light" text="dark" className="border article-card-tag-more">
                  +{moreTags}
                </Badge>
              )}
            </div>
          )}
          <div className="d-flex flex-wrap gap-2 small text-body-secondary">
            <span>{formatRelativeDate(article.published_at)}</span>
            <span>· {article.reading_time} мин чтения</span>
          </div>
        </div>
      </Card.Body>
    </Card>
  );
}
