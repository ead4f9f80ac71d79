import type { TariffOption } from '@gpt/contracts';
import { useState, type KeyboardEvent } from 'react';
import Button from 'react-bootstrap/Button';
import Col from 'react-bootstrap/Col';

import { FilterField, FiltersCard, FilterText } from '@/components/ui/list-filters';

import type { UserFilter } from '../types';
import { TariffSelect } from './tariff-select';

type Filters = Record<UserFilter, string>;

const TEXT_FILTERS: Array<{ name: Exclude<UserFilter, 'tariff_id'>; label: string; placeholder: string }> = [
  { name: 'email', label: 'Email', placeholder: 'Поиск по email' },
  { name: 'username', label: 'Имя пользователя', placeholder: 'Поиск по имени пользователя' },
  { name: 'utm_source', label: 'UTM-источник', placeholder: 'Значение utm_source' },
];

/**
 * Filters of the users screen (docs/product.md, Screens): typed values apply with «Применить фильтры» or Enter in a
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
    <FiltersCard
      footer={
        <div className="d-flex flex-wrap gap-2 mt-3">
          <Button variant="primary" onClick={() => onApply(draft)}>
            Применить фильтры
          </Button>
          <Button variant="outline-secondary" onClick={onReset}>
            Сбросить
          </Button>
        </div>
      }
    >
      {TEXT_FILTERS.map((filter) => (
        <Col key={filter.name} xs={12} md={6} xl={3}>
          <FilterText
            controlId={`users-filter-${filter.name}`}
            label={filter.label}
            value={draft[filter.name]}
            placeholder={filter.placeholder}
            onChange={(event) => set(filter.name, event.target.value)}
            onKeyDown={applyOnEnter}
          />
        </Col>
      ))}
      <Col xs={12} md={6} xl={3}>
        <FilterField controlId="users-filter-tariff" label="Тариф">
          <TariffSelect value={draft.tariff_id} tariffs={tariffs} onChange={(value) => set('tariff_id', value)}>
            <option value="">Все тарифы</option>
          </TariffSelect>
        </FilterField>
      </Col>
    </FiltersCard>
  );
}
