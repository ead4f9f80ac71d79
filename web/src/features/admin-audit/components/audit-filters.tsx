import { AUDIT_ACTION_LABELS } from '@gpt/contracts';
import Col from 'react-bootstrap/Col';
import Form from 'react-bootstrap/Form';

import { FilterField, FiltersCard, FilterText, ResetFiltersButton } from '@/components/ui/list-filters';
import { useDraftFilters } from '@/lib/use-draft-filters';

export type AuditFilterValues = Record<'admin_id' | 'user_id' | 'action' | 'from' | 'to', string>;

/**
 * Filters of «Журнал действий»: the admin's ID, the user's ID (whom the action concerns), the action and the
 * dates (UTC days, both included). Any change reloads the list from page 1; typed ids apply after a short pause.
 */
export function AuditFilters({
  applied,
  onChange,
  onReset,
}: {
  applied: AuditFilterValues;
  onChange: (patch: Partial<AuditFilterValues>) => void;
  onReset: () => void;
}) {
  const ids = useDraftFilters({ admin_id: applied.admin_id, user_id: applied.user_id }, onChange);
  const idField = (name: 'admin_id' | 'user_id', label: string) => (
    <Col xs={6} md={2}>
      <FilterText
        controlId={`audit-filter-${name}`}
        label={label}
        inputMode="numeric"
        value={ids.draft[name]}
        placeholder="Например, 42"
        onKeyDown={ids.applyOnEnter}
        onChange={(event) => ids.edit({ [name]: event.target.value.replace(/\D/g, '') })}
      />
    </Col>
  );
  const dateField = (name: 'from' | 'to', label: string) => (
    <Col xs={6} md={2}>
      <FilterText
        controlId={`audit-filter-${name}`}
        label={label}
        type="date"
        value={applied[name]}
        onChange={(event) => onChange({ [name]: event.target.value })}
      />
    </Col>
  );

  return (
    <FiltersCard>
      {idField('admin_id', 'ID администратора')}
      {idField('user_id', 'ID пользователя')}
      <Col xs={12} md={2}>
        <FilterField controlId="audit-filter-action" label="Действие">
          <Form.Select value={applied.action} onChange={(event) => onChange({ action: event.target.value })}>
            <option value="">Все</option>
            {Object.entries(AUDIT_ACTION_LABELS).map(([action, label]) => (
              <option key={action} value={action}>
                {label}
              </option>
            ))}
          </Form.Select>
        </FilterField>
      </Col>
      {dateField('from', 'С даты')}
      {dateField('to', 'По дату')}
      <Col xs={12} md={2}>
        <ResetFiltersButton onReset={onReset} />
      </Col>
    </FiltersCard>
  );
}
