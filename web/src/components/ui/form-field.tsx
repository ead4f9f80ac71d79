/**
 * A labelled form control, the Form.Group / Form.Label / control / feedback block every form repeats.
 *
 * ```tsx
 * <TextField controlId="tariff-name" label="Название" className="mb-3" value={values.name}
 *   onChange={(e) => set('name', e.target.value)} error={shown('name')} />
 * <Field controlId="user-edit-role" label="Роль" className="mb-3">
 *   <Form.Select value={role} onChange={…}>…</Form.Select>
 * </Field>
 * ```
 * `error` marks a TextField invalid and shows under it; `hint` is the muted text under the control. A DateTimeField
 * holds an ISO moment (null: empty), as a contract's body carries it, and shows it in the browser's time zone:
 * ```tsx
 * <Controller control={form.control} name="valid_from" render={({ field }) => (
 *   <DateTimeField controlId="promo-valid-from" label="Действует с" {...field} error={form.message('valid_from')} />
 * )} />
 * ```
 */
import type { ReactNode, Ref } from 'react';
import Form from 'react-bootstrap/Form';
import type { FormControlProps } from 'react-bootstrap/FormControl';

export interface FieldProps {
  controlId: string;
  label: ReactNode;
  /** Class of the group: spacing or a grid column. */
  className?: string;
  labelClassName?: string;
  /** The field's first error; shown under the control (a TextField is marked invalid). */
  error?: string;
  hint?: ReactNode;
}

/** The label, the control given as children, the error and the hint. */
export function Field({
  controlId,
  label,
  className,
  labelClassName,
  error,
  hint,
  children,
}: FieldProps & { children: ReactNode }) {
  return (
    <Form.Group className={className} controlId={controlId}>
      <Form.Label className={labelClassName}>{label}</Form.Label>
      {children}
      {error && <Form.Control.Feedback type="invalid">{error}</Form.Control.Feedback>}
      {hint && <Form.Text>{hint}</Form.Text>}
    </Form.Group>
  );
}

export type TextFieldProps = FieldProps &
  Omit<FormControlProps, 'isInvalid' | 'id' | 'className'> & {
    as?: 'textarea';
    rows?: number;
    /** Class of the control itself. */
    controlClassName?: string;
    ref?: Ref<HTMLInputElement>;
  };

/** A Form.Control (input or textarea) in its Field. */
export function TextField({ controlClassName, ...props }: TextFieldProps) {
  const { controlId, label, className, labelClassName, error, hint, ...control } = props;
  return (
    <Field {...{ controlId, label, className, labelClassName, error, hint }}>
      <Form.Control {...control} className={controlClassName} isInvalid={Boolean(error)} />
    </Field>
  );
}

/** `2025-06-24T12:00:00.000Z` → `2025-06-24T15:00` in the browser's zone, as datetime-local wants it. */
function toLocalInput(iso: string | null | undefined): string {
  if (!iso) return '';
  const date = new Date(iso);
  return new Date(date.getTime() - date.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
}

/** A datetime-local TextField whose value is an ISO moment, null while empty. */
export function DateTimeField({
  value,
  onChange,
  ...props
}: Omit<TextFieldProps, 'type' | 'value' | 'onChange'> & {
  value: string | null | undefined;
  onChange: (iso: string | null) => void;
}) {
  return (
    <TextField
      {...props}
      type="datetime-local"
      value={toLocalInput(value)}
      onChange={(event) => onChange(event.target.value ? new Date(event.target.value).toISOString() : null)}
    />
  );
}
