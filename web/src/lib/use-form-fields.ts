import { useState, type ChangeEvent } from 'react';

/** A form of text fields and checkboxes. */
type FormShape<V> = { [K in keyof V]: string | boolean };
/** The text and number fields of a form (checkboxes are set with `set`). */
type TextName<V extends FormShape<V>> = { [K in keyof V]: V[K] extends string ? K : never }[keyof V] & string;

/**
 * A dialog form's values and rules: a rule's text shows under its field once the field was changed
 * or left, and `invalid` blocks saving while any rule fails.
 *
 * ```tsx
 * const form = useFormFields(() => formOf(tariff), validateTariff);
 * <TextField label="Название" {...form.bind('name', 'tariff')} />
 * <Form.Check checked={form.values.is_active} onChange={(e) => form.set('is_active', e.target.checked)} />
 * <FormDialog submitDisabled={form.invalid} onSubmit={() => onSave(bodyOf(form.values))} … />
 * ```
 */
export function useFormFields<V extends FormShape<V>>(
  initial: () => V,
  validate: (values: V) => Partial<Record<keyof V, string>>,
) {
  const [values, setValues] = useState<V>(initial);
  const [touched, setTouched] = useState<Partial<Record<keyof V, boolean>>>({});
  const errors = validate(values);
  const touch = (name: keyof V) => setTouched((current) => ({ ...current, [name]: true }));
  const set = <K extends keyof V>(name: K, value: V[K]) => {
    setValues((current) => ({ ...current, [name]: value }));
    touch(name);
  };
  return {
    values,
    errors,
    invalid: Object.keys(errors).length > 0,
    set,
    /** The props of a TextField bound to `name`; its id is `<idPrefix>-<name with dashes>`. */
    bind: (name: TextName<V>, idPrefix: string) => ({
      controlId: `${idPrefix}-${name.replaceAll('_', '-')}`,
      value: values[name] as string,
      error: touched[name] ? errors[name] : undefined,
      onChange: (event: ChangeEvent<HTMLInputElement>) => set(name, event.target.value as V[typeof name]),
      onBlur: () => touch(name),
    }),
  };
}
