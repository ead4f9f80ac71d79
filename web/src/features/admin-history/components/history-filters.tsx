import Col from 'react-bootstrap/Col';

import { FiltersCard, FilterText, ResetFiltersButton, UserFilterFields } from '@/components/ui/list-filters';
import { useDraftFilters } from '@/lib/use-draft-filters';

export type HistoryFilterValues = Record<'userId' | 'username' | 'message', string>;

/**
 * Filters of the history (docs/product.md, Screens): user ID (pre-filled from `?userId=`), username and message text.
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

  return (
    <FiltersCard>
      <UserFilterFields
        idPrefix="history-filter"
        values={filters.draft}
        onEdit={filters.edit}
        onKeyDown={filters.applyOnEnter}
        widths={[2, 3]}
      />
      <Col xs={12} md={5}>
        <FilterText
          controlId="history-filter-message"
          label="Текст сообщения"
          value={filters.draft.message}
          placeholder="Поиск в сообщениях и ответах"
          onKeyDown={filters.applyOnEnter}
          onChange={(event) => filters.edit({ message: event.target.value })}
        />
      </Col>
      <Col xs={12} md={2}>
        <ResetFiltersButton onReset={onReset} />
      </Col>
    </FiltersCard>
  );
}
