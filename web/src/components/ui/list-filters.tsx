/**
 * The filter card above an admin list and its fields.
 *
 * ```tsx
 * <FiltersCard>
 *   <UserFilterFields idPrefix="payments-filter" values={filters.draft} onEdit={filters.edit} widths={[3, 4]} />
 *   <Col xs={12} md={3}><FilterField controlId="…" label="Статус"><Form.Select …/></FilterField></Col>
 *   <Col xs={12} md={2}><ResetFiltersButton onReset={list.resetFilters} /></Col>
 * </FiltersCard>
 * ```
 */
import type { KeyboardEvent, ReactNode } from 'react';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Col from 'react-bootstrap/Col';
import Form from 'react-bootstrap/Form';
import Row from 'react-bootstrap/Row';

import { Field, TextField, type FieldProps, type TextFieldProps } from './form-field';

const LABEL_CLASS = 'small text-body-secondary';

/** The fields in one row (each in its Col); `footer` under the row. */
export function FiltersCard({ children, footer }: { children: ReactNode; footer?: ReactNode }) {
  return (
    <Card className="mb-3">
      <Card.Body>
        <Row className="g-3 align-items-end">{children}</Row>
        {footer}
      </Card.Body>
    </Card>
  );
}

/** A filter's control (given as children) with the filters' small label. */
export function FilterField(props: FieldProps & { children: ReactNode }) {
  return <Field labelClassName={LABEL_CLASS} {...props} />;
}

/** A filter's text input with the filters' small label. */
export function FilterText(props: TextFieldProps) {
  return <TextField labelClassName={LABEL_CLASS} {...props} />;
}

/** «Сбросить», as wide as its column. */
export function ResetFiltersButton({ onReset }: { onReset: () => void }) {
  return (
    <Button variant="outline-secondary" className="w-100" onClick={onReset}>
      Сбросить
    </Button>
  );
}

type UserFilter = 'userId' | 'username';

/** «ID пользователя» (digits only) and «Имя пользователя», each in its Col of the given md widths. */
export function UserFilterFields({
  idPrefix,
  values,
  onEdit,
  onKeyDown,
  widths,
}: {
  idPrefix: string;
  values: Record<UserFilter, string>;
  onEdit: (patch: Partial<Record<UserFilter, string>>) => void;
  onKeyDown?: (event: KeyboardEvent) => void;
  widths: [number, number];
}) {
  return (
    <>
      <Col xs={12} md={widths[0]}>
        <FilterText
          controlId={`${idPrefix}-user-id`}
          label="ID пользователя"
          inputMode="numeric"
          value={values.userId}
          placeholder="Например, 42"
          onKeyDown={onKeyDown}
          onChange={(event) => onEdit({ userId: event.target.value.replace(/\D/g, '') })}
        />
      </Col>
      <Col xs={12} md={widths[1]}>
        <FilterText
          controlId={`${idPrefix}-username`}
          label="Имя пользователя"
          value={values.username}
          placeholder="Поиск по имени пользователя"
          onKeyDown={onKeyDown}
          onChange={(event) => onEdit({ username: event.target.value })}
        />
      </Col>
    </>
  );
}

/** A select of one filter: «Все» or one of the options, by its Russian label. */
export function ChoiceFilter<T extends string>(props: {
  /** Its control's id is `<idPrefix>-<id>`. */
  idPrefix: string;
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
      <FilterField controlId={`${props.idPrefix}-${props.id}`} label={props.label}>
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
