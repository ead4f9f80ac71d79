import { type ChatSearchResponse } from '@gpt/contracts';
import { useState, type FormEvent } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import InputGroup from 'react-bootstrap/InputGroup';
import Spinner from 'react-bootstrap/Spinner';

import { Icon } from '@/components/ui/icons';
import { errorMessage } from '@/lib/api-client';
import { formatDateTime } from '@/lib/dates';

import { useSearchChats } from '../api/search-chats';

/** A snippet as the server marks it: the words found between `**`, shown marked. */
function Snippet({ text }: { text: string }) {
  return (
    <span className="chat-hit-snippet small">
      {text.split(/\*\*(.+?)\*\*/g).map((part, index) => (index % 2 === 1 ? <mark key={index}>{part}</mark> : part))}
    </span>
  );
}

export interface ChatSearchProps {
  /** The words searched for: while there are any, the hits stand in for the list of chats. */
  query: string;
  onQuery(query: string): void;
  onOpenHit(hit: ChatSearchResponse['items'][number]): void;
}

/** «Поиск по чатам»: the search box, and under it the messages found with their snippets. */
export function ChatSearch({ query, onQuery, onOpenHit }: ChatSearchProps) {
  const [draft, setDraft] = useState(query);
  const hits = useSearchChats(query);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    onQuery(draft.trim());
  };

  return (
    <>
      <Form role="search" className="px-3 pb-2" onSubmit={submit}>
        <Form.Label htmlFor="chat-search" className="visually-hidden">
          Поиск по чатам
        </Form.Label>
        <InputGroup size="sm">
          <Form.Control
            id="chat-search"
            type="search"
            placeholder="Поиск по чатам"
            value={draft}
            onChange={(event) => {
              setDraft(event.target.value);
              if (event.target.value === '') onQuery('');
            }}
          />
          <Button type="submit" variant="outline-secondary" aria-label="Найти">
            <Icon name="search" size={16} />
          </Button>
        </InputGroup>
      </Form>
      {query !== '' && (
        <section className="chat-hits" aria-label="Найдено в чатах" aria-busy={hits.isFetching}>
          <div className="d-flex align-items-center justify-content-between px-3 pb-1 small text-body-secondary">
            <span role="status">
              {hits.isPending ? 'Ищем…' : hits.data ? `Найдено: ${hits.data.length}` : ''}
              {hits.isFetching && !hits.isPending && <Spinner size="sm" className="ms-2" aria-hidden />}
            </span>
            <Button
              variant="link"
              size="sm"
              className="p-0"
              onClick={() => {
                setDraft('');
                onQuery('');
              }}
            >
              Все чаты
            </Button>
          </div>
          {hits.isError && (
            <p className="small text-danger px-3" role="alert">
              {errorMessage(hits.error, 'Не удалось выполнить поиск.')}
            </p>
          )}
          {hits.data?.length === 0 && <p className="small text-body-secondary px-3">Ничего не найдено.</p>}
          <ul className="list-unstyled mb-0">
            {hits.data?.map((hit) => (
              <li key={hit.messageId}>
                <button type="button" className="chat-hit" onClick={() => onOpenHit(hit)}>
                  <span className="chat-list-title">{hit.title || 'Новый чат'}</span>
                  <Snippet text={hit.snippet} />
                  <span className="small text-body-secondary">{formatDateTime(hit.createdAt)}</span>
                </button>
              </li>
            ))}
          </ul>
        </section>
      )}
    </>
  );
}
