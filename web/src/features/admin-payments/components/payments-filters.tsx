import Col from 'react-bootstrap/Col';
import Form from 'react-bootstrap/Form';

import { FilterField, FiltersCard, ResetFiltersButton, UserFilterFields } from '@/components/ui/list-filters';
import { useDraftFilters } from '@/lib/use-draft-filters';

import { PAYMENT_STATUSES, paymentStatusBadge } from '../status';

export type PaymentFilters = Record<'userId' | 'username' | 'status', string>;

/**
 * Filters of the payments screen (docs/product.md, Screens): user ID (pre-filled from `?userId=`), username and the
 * status select. Any change reloads the list from page 1; typed text applies after a short pause.
 */
export function PaymentsFilters({
  applied,
  onChange,
  onReset,
}: {
  applied: PaymentFilters;
  onChange: (patch: Partial<PaymentFilters>) => void;
  onReset: () => void;
}) {
  const filters = useDraftFilters({ userId: applied.userId, username: applied.username }, onChange);

  return (
    <FiltersCard>
      <UserFilterFields idPrefix="payments-filter" values={filters.draft} onEdit={filters.edit} widths={[3, 4]} />
      <Col xs={12} md={3}>
        <FilterField controlId="payments-filter-status" label="Статус">
          <Form.Select value={applied.status} onChange={(event) => onChange({ status: event.target.value })}>
            <option value="">Все</option>
            {PAYMENT_STATUSES.map((status) => (
              <option key={status} value={status}>
                {paymentStatusBadge.labels[status]}
              </option>
            ))}
          </Form.Select>
        </FilterField>
      </Col>
      <Col xs={12} md={2}>
        <ResetFiltersButton onReset={onReset} />
      </Col>
    </FiltersCard>
  );
}
