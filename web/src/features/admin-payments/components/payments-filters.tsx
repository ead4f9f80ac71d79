import Col from 'react-bootstrap/Col';

import { ChoiceFilter, FiltersCard, ResetFiltersButton, UserFilterFields } from '@/components/ui/list-filters';
import { useDraftFilters } from '@/lib/use-draft-filters';

import { PAYMENT_PROVIDER_LABELS, PAYMENT_PROVIDERS, PAYMENT_STATUSES, paymentStatusBadge } from '../status';

export type PaymentFilters = Record<'userId' | 'username' | 'status' | 'provider', string>;

/**
 * Filters of the payments screen (docs/product.md, Screens): user ID (pre-filled from `?userId=`), username,
 * the status select and how it was paid (card or Stars). Any change reloads the list from page 1; typed text
 * applies after a short pause.
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
      <UserFilterFields idPrefix="payments-filter" values={filters.draft} onEdit={filters.edit} widths={[2, 3]} />
      <ChoiceFilter
        idPrefix="payments-filter"
        id="status"
        label="Статус"
        width={2}
        value={applied.status}
        labels={paymentStatusBadge.labels}
        options={PAYMENT_STATUSES}
        onChange={(status) => onChange({ status })}
      />
      <ChoiceFilter
        idPrefix="payments-filter"
        id="provider"
        label="Способ оплаты"
        width={3}
        value={applied.provider}
        labels={PAYMENT_PROVIDER_LABELS}
        options={PAYMENT_PROVIDERS}
        onChange={(provider) => onChange({ provider })}
      />
      <Col xs={12} md={2}>
        <ResetFiltersButton onReset={onReset} />
      </Col>
    </FiltersCard>
  );
}
