import { useEffect, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import InputGroup from 'react-bootstrap/InputGroup';
import Nav from 'react-bootstrap/Nav';

import { Icon } from '@/components/ui/icons';

import { useCategoryOptions, useTagOptions } from '../api/get-taxonomy-options';
import type { ArticlesListState } from '../list-state';

/** How many of the most used tags the page offers as buttons. */
const POPULAR_TAGS = 10;
/** Typing pauses this long before the search runs. */
const SEARCH_DELAY_MS = 400;

/** Search box, category tabs and popular-tag buttons of the articles page (docs/product.md, Screens and States). */
export function ArticlesFilters({
  state,
  onSearch,
  onCategory,
  onTag,
}: {
  state: ArticlesListState;
  onSearch: (q: string) => void;
  onCategory: (slug: string) => void;
  onTag: (slug: string) => void;
}) {
  const categories = useCategoryOptions();
  const tags = useTagOptions();
  const [text, setText] = useState(state.q);
  const [shownQ, setShownQ] = useState(state.q);

  // The URL may change the search from outside (a tab, a tag, Back): show what it says, unless
  // it is what the box already holds (trailing spaces of the word being typed stay).
  if (state.q !== shownQ) {
    setShownQ(state.q);
    if (state.q !== text.trim()) setText(state.q);
  }

  useEffect(() => {
    if (text.trim() === state.q) return;
    const timer = setTimeout(() => onSearch(text), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [text, state.q, onSearch]);

  const popularTags = (tags.data ?? []).filter((tag) => tag.article_count > 0).slice(0, POPULAR_TAGS);
  const categoryTabs = (categories.data ?? []).filter((category) => category.article_count > 0);

  return (
    <div className="articles-filters mb-4">
      <Form
        role="search"
        className="mb-3"
        onSubmit={(event) => {
          event.preventDefault();
          onSearch(text);
        }}
      >
        <InputGroup>
          <InputGroup.Text>
            <Icon name="search" size={18} />
          </InputGroup.Text>
          <Form.Control
            type="search"
            placeholder="Поиск по статьям"
            aria-label="Поиск по статьям"
            value={text}
            onChange={(event) => setText(event.target.value)}
          />
          {text && (
            <Button
              variant="outline-secondary"
              onClick={() => {
                setText('');
                onSearch('');
              }}
            >
              Очистить
            </Button>
          )}
        </InputGroup>
      </Form>
      {categoryTabs.length > 0 && (
        <Nav variant="tabs" className="articles-category-tabs mb-3" aria-label="Категории">
          <Nav.Item>
            <Nav.Link as="button" active={!state.category && !state.q && !state.tag} onClick={() => onCategory('')}>
              Все статьи
            </Nav.Link>
          </Nav.Item>
          {categoryTabs.map((category) => (
            <Nav.Item key={category.slug}>
              <Nav.Link as="button" active={state.category === category.slug} onClick={() => onCategory(category.slug)}>
                {category.name}
              </Nav.Link>
            </Nav.Item>
          ))}
        </Nav>
      )}
      {popularTags.length > 0 && (
        <div className="d-flex flex-wrap align-items-center gap-2" aria-label="Популярные теги" role="group">
          <span className="small text-body-secondary me-1">Популярные теги:</span>
          {popularTags.map((tag) => (
            <Button
              key={tag.slug}
              size="sm"
              variant={state.tag === tag.slug ? 'primary' : 'outline-secondary'}
              className="rounded-pill"
              aria-pressed={state.tag === tag.slug}
              onClick={() => onTag(state.tag === tag.slug ? '' : tag.slug)}
            >
              #{tag.name}
            </Button>
          ))}
        </div>
      )}
    </div>
  );
}
