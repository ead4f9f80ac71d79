import { useState, type KeyboardEvent } from 'react';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Col from 'react-bootstrap/Col';
import Form from 'react-bootstrap/Form';
import Row from 'react-bootstrap/Row';

import type { TariffOption, UserFilter } from '../types';

type Filters = Record<UserFilter, string>;

const TEXT_FILTERS: Array<{ name: Exclude<UserFilter, 'tariff_id'>; label: string; placeholder: string }> = [
  { name: 'email', label: 'Email', placeholder: 'Поиск по email' },
  { name: 'username', label: 'Username', placeholder: 'Поиск по username' },
  { name: 'utm_source', label: 'UTM-источник', placeholder: 'Например, yandex' },
];

/**
 * Filters of the users screen (spec §2): typed values apply with «Применить фильтры» or Enter in a
 * text field; «Сбросить» clears them. Mount it with a key of the applied filters so it starts from them.
 */
export function UsersFilters({
  applied,
  tariffs,
  onApply,
  onReset,
}: {
  applied: Filters;
  tariffs: TariffOption[];
  onApply: (filters: Filters) => void;
  onReset: () => void;
}) {
  const [draft, setDraft] = useState<Filters>(applied);
  const set = (name: UserFilter, value: string) => setDraft((current) => ({ ...current, [name]: value }));
  const applyOnEnter = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== 'Enter') return;
    event.preventDefault();
    onApply(draft);
  };

  return (
    <Card className="mb-3">
      <Card.Body>
        <Row className="g-3 align-items-end">
          {TEXT_FILTERS.map((filter) => (
            <Col key={filter.name} xs={12} md={6} xl={3}>
              <Form.Group controlId={`users-filter-${filter.name}`}>
                <Form.Label className="small text-body-secondary">{filter.label}</Form.Label>
                <Form.Control
                  value={draft[filter.name]}
                  placeholder={filter.placeholder}
                  onChange={(event) => set(filter.name, event.target.value)}
                  onKeyDown={applyOnEnter}
                />
              </Form.Group>
            </Col>
          ))}
          <Col xs={12} md={6} xl={3}>
            <Form.Group controlId="users-filter-tariff">
              <Form.Label className="small text-body-secondary">Тариф</Form.Label>
              <Form.Select value={draft.tariff_id} onChange={(event) => set('tariff_id', event.target.value)}>
                <option value="">Все тарифы</option>
                {tariffs.map((tariff) => (
                  <option key={tariff.id} value={String(tariff.id)}>
                    {tariff.name}
                  </option>
                ))}
              </Form.Select>
            </Form.Group>
          </Col>
        </Row>
        <div className="d-flex flex-wrap gap-2 mt-3">
          <Button variant="primary" onClick={() => onApply(draft)}>
            Применить фильтры
          </Button>
          <Button variant="outline-secondary" onClick={onReset}>
            Сбросить
          </Button>
        </div>
      </Card.Body>
    </Card>
  );
}
