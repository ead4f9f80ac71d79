import { useEffect } from 'react';
import Button from 'react-bootstrap/Button';
import Col from 'react-bootstrap/Col';
import Row from 'react-bootstrap/Row';

import { EmptyState } from '@/components/ui/empty-state';
import { PageHeader } from '@/components/ui/page-header';
import { Pager } from '@/components/ui/pager';
import { SpinnerBlock } from '@/components/ui/spinner-block';
import { useArticles } from '@/features/articles/api/get-articles';
import { ArticleCard } from '@/features/articles/components/article-card';
import { ArticlesFilters } from '@/features/articles/components/articles-filters';
import { toParams, useArticlesListState } from '@/features/articles/list-state';
import { pluralRu } from '@/lib/dates';

import { PageContainer } from '../layouts/page-container';

export function ArticlesPage() {
  const { state, chooseCategory, chooseTag, search, goToPage } = useArticlesListState();
  const { data, isPending, isFetching, isError, error, refetch } = useArticles(state);

  // Load failures are logged (docs/product.md, Errors) and said, with a retry: «not found» would be untrue.
  useEffect(() => {
    if (isError) console.error('Articles failed to load', error);
  }, [isError, error]);

  const articles = data?.articles ?? [];
  const total = data?.pagination.total ?? 0;
  const pages = Math.max(1, data?.pagination.pages ?? 1);

  return (
    <PageContainer>
      <PageHeader title="Статьи" lead="Полезное о нейросетях: гайды, новости и приёмы работы с GPT" />
      <ArticlesFilters state={state} onSearch={search} onCategory={chooseCategory} onTag={chooseTag} />
      {state.q && !isPending && !isError && (
        <p className="text-body-secondary" data-testid="search-summary">
          {total > 0
            ? `По запросу «${state.q}» ${pluralRu(total, ['найдена', 'найдено', 'найдено'])} ${total} ${pluralRu(total, ['статья', 'статьи', 'статей'])}`
            : `По запросу «${state.q}» ничего не нашлось`}
        </p>
      )}
      <div
        aria-busy={isFetching}
        data-testid="articles-results"
        data-loaded={isFetching ? undefined : toParams(state).toString()}
      >
        {isPending ? (
          <SpinnerBlock />
        ) : isError ? (
          <EmptyState
            title="Не удалось загрузить статьи"
            actions={
              <Button variant="primary" onClick={() => void refetch()}>
                Повторить
              </Button>
            }
          >
            Проверьте подключение к интернету и попробуйте ещё раз.
          </EmptyState>
        ) : articles.length === 0 ? (
          <EmptyState icon="article" title="Статьи не найдены" />
        ) : (
          <>
            <Row xs={1} md={2} lg={3} className="g-4">
              {articles.map((article) => (
                <Col key={article.id}>
                  <ArticleCard article={article} />
                </Col>
              ))}
            </Row>
            <Pager page={state.page} pages={pages} onPage={goToPage} testId="articles-page" />
          </>
        )}
      </div>
    </PageContainer>
  );
}
