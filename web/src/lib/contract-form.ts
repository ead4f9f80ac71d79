import { zodResolver } from '@hookform/resolvers/zod';
import {
  get,
  useForm,
  type DefaultValues,
  type FieldError,
  type FieldValues,
  type Mode,
  type Path,
  type RegisterOptions,
} from 'react-hook-form';
import type { z } from 'zod';

/**
 * The one form pattern of the web app (docs/architecture.md, Web app): react-hook-form validating with a contract's
 * zod schema, so a form shows the server's own Russian messages and submits the body the schema makes of its values.
 *
 * ```tsx
 * const form = useContractForm(TariffInput, formOf(tariff), 'all');
 * <Form noValidate onSubmit={form.handleSubmit((body) => save.mutate(body))}>
 *   <TextField controlId="tariff-name" label="Название" {...form.field('name')} />
 *   <TextField controlId="tariff-credits" type="number" {...form.field('credits_per_ruble', { valueAsNumber: true })} />
 *   <Form.Check {...form.register('is_active')} />
 * ```
 * A field's message shows once it was left (`onTouched`, the default) or at each change (`all`), and every field's on
 * submit; the submit handler gets the schema's output (trimmed, with its defaults).
 */
export function useContractForm<Input extends FieldValues, Output extends FieldValues>(
  schema: z.ZodType<Output, Input>,
  defaultValues: DefaultValues<Input>,
  mode: Mode = 'onTouched',
) {
  const form = useForm<Input, unknown, Output>({
    resolver: zodResolver(schema),
    defaultValues,
    mode,
  });
  /** The message under field `name`, if it shows one. */
  const message = (name: Path<Input>) => (get(form.formState.errors, name) as FieldError | undefined)?.message;
  return {
    ...form,
    message,
    /** The props of a TextField bound to `name`: its registration and its message. */
    field: (name: Path<Input>, options?: RegisterOptions<Input, Path<Input>>) => ({
      ...form.register(name, options),
      error: message(name),
    }),
  };
}

/**
 * The registration of a number input whose contract field is a number that may be left out: its text as a number,
 * an empty input as `empty` (null or undefined, as the contract has it). react-hook-form passes the form's own values
 * through it too, so what is not text stays as it is.
 * ```tsx
 * <TextField controlId="promo-credits" type="number" {...form.field('credits', numberInput(null))} />
 * ```
 */
export function numberInput(empty: null | undefined) {
  return {
    setValueAs: (value: unknown) => (typeof value !== 'string' ? value : value.trim() === '' ? empty : Number(value)),
  };
}
