import Col from 'react-bootstrap/Col';

import { FiltersCard, FilterText, ResetFiltersButton } from '@/components/ui/list-filters';
import { useDraftFilters } from '@/lib/use-draft-filters';

export type ModesFilterValues = Record<'q', string>;

/** The search over modes' names, descriptions and prompts; typed text applies after a short pause, Enter at once. */
export function ModesSearch({
  applied,
  onChange,
  onReset,
}: {
  applied: ModesFilterValues;
  onChange: (next: ModesFilterValues) => void;
  onReset: () => void;
}) {
  const filters = useDraftFilters(applied, onChange);
  return (
    <FiltersCard>
      <Col xs={12} md={10}>
        <FilterText
          controlId="modes-search"
          label="Поиск"
          value={filters.draft.q}
          placeholder="Название, описание или текст промпта"
          onKeyDown={filters.applyOnEnter}
          onChange={(event) => filters.edit({ q: event.target.value })}
        />
      </Col>
      <Col xs={12} md={2}>
        <ResetFiltersButton onReset={onReset} />
      </Col>
    </FiltersCard>
  );
}
