import Col from 'react-bootstrap/Col';
import Form from 'react-bootstrap/Form';

import { FilterField, FiltersCard, ResetFiltersButton, UserFilterFields } from '@/components/ui/list-filters';
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
        id="status"
        label="Статус"
        width={2}
        value={applied.status}
        labels={paymentStatusBadge.labels}
        options={PAYMENT_STATUSES}
        onChange={(status) => onChange({ status })}
      />
      <ChoiceFilter
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

/** A select of one filter: «Все» or one of the options, by its Russian label. */
function ChoiceFilter<T extends string>(props: {
  id: string;
  label: string;
  width: number;
  value: string;
  options: readonly T[];
  labels: Record<T, string>;
  onChange: (value: string) => void;
}) {
  return (
    <Col xs={12} md={props.width}>
      <FilterField controlId={`payments-filter-${props.id}`} label={props.label}>
        <Form.Select value={props.value} onChange={(event) => props.onChange(event.target.value)}>
          <option value="">Все</option>
          {props.options.map((option) => (
            <option key={option} value={option}>
              {props.labels[option]}
            </option>
          ))}
        </Form.Select>
      </FilterField>
    </Col>
  );
}
