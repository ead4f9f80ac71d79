import { useState, type ChangeEvent, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';

import { paths } from '@/config/paths';

import { hasErrors, type FieldErrors } from './validation';

type TextName<V> = { [K in keyof V]: V[K] extends string ? K : never }[keyof V];

/**
 * The state of the login and registration forms: the values, which fields were touched (a rule's text shows
 * under a field once it was left), the submit that touches every field and stops on a rule, and whether the
 * last attempt failed. Success goes to /link/{token} when a link token came along, else to /dashboard.
 */
export function useAuthForm<V extends { [K in keyof V]: string | boolean }>(
  initial: V,
  validate: (values: V) => FieldErrors<keyof V & string>,
  linkToken: string | null,
) {
  const navigate = useNavigate();
  const [values, setValues] = useState(initial);
  const [touched, setTouched] = useState<Partial<Record<keyof V, boolean>>>({});
  const [failed, setFailed] = useState(false);
  const errors = validate(values);
  const shown = (name: keyof V & string) => (touched[name] ? errors[name] : undefined);
  const touch = (name: keyof V) => setTouched((current) => ({ ...current, [name]: true }));

  return {
    values,
    shown,
    failed,
    /** Sets a value and marks the field touched (a checkbox shows its rule at once). */
    check: <K extends keyof V>(name: K, value: V[K]) => {
      setValues((current) => ({ ...current, [name]: value }));
      touch(name);
    },
    /** Props of a text field's TextField. */
    field: (name: TextName<V> & string) => ({
      value: values[name] as string,
      onChange: (event: ChangeEvent<HTMLInputElement>) =>
        setValues((current) => ({ ...current, [name]: event.target.value })),
      onBlur: () => touch(name),
      error: shown(name),
    }),
    /** The form's onSubmit: runs `send` once every rule passes; its failure is logged under `failure`. */
    submit: (send: () => Promise<unknown>, failure: string) => async (event: FormEvent<HTMLFormElement>) => {
      event.preventDefault();
      setTouched(Object.fromEntries(Object.keys(values).map((name) => [name, true])) as Record<keyof V, boolean>);
      if (hasErrors(errors)) return;
      setFailed(false);
      try {
        await send();
        navigate(linkToken ? paths.link(linkToken) : paths.dashboard, { replace: true });
      } catch (err) {
        console.error(failure, err);
        setFailed(true);
      }
    },
  };
}
