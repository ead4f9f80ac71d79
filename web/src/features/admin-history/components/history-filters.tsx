import type { KeyboardEvent } from 'react';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Col from 'react-bootstrap/Col';
import Form from 'react-bootstrap/Form';
import Row from 'react-bootstrap/Row';

import { useDraftFilters } from '@/lib/use-draft-filters';

export type HistoryFilterValues = Record<'userId' | 'username' | 'message', string>;

/**
 * Filters of the history (spec §2): user ID (pre-filled from `?userId=`), username and message text.
 * Any change reloads the list from page 1; typed text applies after a short pause, Enter at once.
 */
export function HistoryFilters({
  applied,
  onChange,
  onReset,
}: {
  applied: HistoryFilterValues;
  onChange: (next: HistoryFilterValues) => void;
  onReset: () => void;
}) {
  const filters = useDraftFilters(applied, onChange);
  const applyOnEnter = (event: KeyboardEvent) => {
    if (event.key === 'Enter') filters.flush();
  };

  return (
    <Card className="mb-3">
      <Card.Body>
        <Row className="g-3 align-items-end">
          <Col xs={12} md={2}>
            <Form.Group controlId="history-filter-user-id">
              <Form.Label className="small text-body-secondary">ID пользователя</Form.Label>
              <Form.Control
                inputMode="numeric"
                value={filters.draft.userId}
                placeholder="Например, 42"
                onKeyDown={applyOnEnter}
                onChange={(event) => filters.edit({ userId: event.target.value.replace(/\D/g, '') })}
              />
            </Form.Group>
          </Col>
          <Col xs={12} md={3}>
            <Form.Group controlId="history-filter-username">
              <Form.Label className="small text-body-secondary">Username</Form.Label>
              <Form.Control
                value={filters.draft.username}
                placeholder="Поиск по username"
                onKeyDown={applyOnEnter}
                onChange={(event) => filters.edit({ username: event.target.value })}
              />
            </Form.Group>
          </Col>
          <Col xs={12} md={5}>
            <Form.Group controlId="history-filter-message">
              <Form.Label className="small text-body-secondary">Текст сообщения</Form.Label>
              <Form.Control
                value={filters.draft.message}
                placeholder="Поиск в сообщениях и ответах"
                onKeyDown={applyOnEnter}
                onChange={(event) => filters.edit({ message: event.target.value })}
              />
            </Form.Group>
          </Col>
          <Col xs={12} md={2}>
            <Button variant="outline-secondary" className="w-100" onClick={onReset}>
              Сбросить
            </Button>
          </Col>
        </Row>
      </Card.Body>
    </Card>
  );
}
