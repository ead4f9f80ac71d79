import type { AdminArticle } from '@gpt/contracts';

import { StatusBadge } from '@/components/ui/status-badge';
import { DetailList, ViewDialog } from '@/components/ui/view-dialog';
import { formatDateTime } from '@/lib/dates';

import { articleStatusBadge } from '../article-status';

/** «Просмотр статьи»: title, slug, status, views, publication date, excerpt and the HTML content (docs/product.md, Screens). */
export function ArticleViewDialog({ article, onHide }: { article: AdminArticle | null; onHide: () => void }) {
  return (
    <ViewDialog show={article !== null} title="Просмотр статьи" onHide={onHide} width="article">
      {article && (
        <>
          <DetailList
            items={[
              { label: 'Заголовок', value: article.title },
              { label: 'Адрес страницы', value: <code>{article.slug}</code> },
              { label: 'Статус', value: <StatusBadge value={article.status} {...articleStatusBadge} /> },
              { label: 'Просмотры', value: article.view_count },
              { label: 'Дата публикации', value: formatDateTime(article.published_at) },
              { label: 'Анонс', value: article.excerpt },
            ]}
          />
          <h3 className="h6 mt-4">Содержание</h3>
          {/* Sanitized by the content service when saved. */}
          <div
            className="article-body border rounded p-3 article-view-content"
            dangerouslySetInnerHTML={{ __html: article.content }}
          />
        </>
      )}
    </ViewDialog>
  );
}
