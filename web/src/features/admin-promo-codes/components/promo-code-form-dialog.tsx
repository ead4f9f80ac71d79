import { PromoCodeInput, type PromoCode } from '@gpt/contracts';
import { useRef, useState, type ChangeEvent } from 'react';
import Form from 'react-bootstrap/Form';

import { FormDialog } from '@/components/ui/form-dialog';
import { Field, TextField } from '@/components/ui/form-field';
import { TariffSelect } from '@/components/ui/tariff-select';
import { useTariffOptions } from '@/lib/admin-tariff-options';

import type { PromoCodeBody } from '../api/save-promo-code';

interface PromoFormValues {
  code: string;
  kind: 'credits' | 'tariff';
  credits: string;
  tariff_id: string;
  tariff_days: string;
  max_uses: string;
  valid_from: string;
  valid_until: string;
  is_active: boolean;
}
type TextName = Exclude<keyof PromoFormValues, 'kind' | 'is_active' | 'tariff_id'>;

/** An ISO moment as a datetime-local input shows it (the admin's own time zone), and back. */
const toLocalInput = (iso: string | null) => {
  if (!iso) return '';
  const date = new Date(iso);
  return new Date(date.getTime() - date.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
};
const fromLocalInput = (text: string) => (text ? new Date(text).toISOString() : null);

function formOf(code: PromoCode | null): PromoFormValues {
  return {
    code: code?.code ?? '',
    kind: code?.kind ?? 'credits',
    credits: code?.credits === null || code === null ? '' : String(code.credits),
    tariff_id: code?.tariff_id ? String(code.tariff_id) : '',
    tariff_days: code?.tariff_days ? String(code.tariff_days) : '',
    max_uses: code ? String(code.max_uses) : '100',
    valid_from: toLocalInput(code?.valid_from ?? null),
    valid_until: toLocalInput(code?.valid_until ?? null),
    is_active: code?.is_active ?? true,
  };
}

const whole = (text: string) => (text.trim() === '' ? null : Number(text));

function bodyOf(values: PromoFormValues): PromoCodeBody {
  return {
    code: values.code.trim(),
    kind: values.kind,
    credits: values.kind === 'credits' ? whole(values.credits) : null,
    tariff_id: values.kind === 'tariff' ? whole(values.tariff_id) : null,
    tariff_days: values.kind === 'tariff' ? whole(values.tariff_days) : null,
    max_uses: whole(values.max_uses) ?? 0,
    valid_from: fromLocalInput(values.valid_from),
    valid_until: fromLocalInput(values.valid_until),
    is_active: values.is_active,
  };
}

/** The contract's rules, first message per field. */
function errorsOf(values: PromoFormValues): Partial<Record<keyof PromoFormValues, string>> {
  const errors: Partial<Record<string, string>> = {};
  for (const issue of PromoCodeInput.safeParse(bodyOf(values)).error?.issues ?? []) {
    const field = String(issue.path[0]);
    errors[field] ??= issue.message;
  }
  return errors;
}

/** Create / edit dialog of a promo code; mount it with a key of the edited code. */
export function PromoCodeFormDialog({
  show,
  promoCode,
  saving,
  error,
  onHide,
  onSave,
}: {
  show: boolean;
  promoCode: PromoCode | null;
  saving: boolean;
  error: string | null;
  onHide: () => void;
  onSave: (body: PromoCodeBody) => void;
}) {
  const codeRef = useRef<HTMLInputElement>(null);
  const tariffs = useTariffOptions().data ?? [];
  const [values, setValues] = useState(() => formOf(promoCode));
  const [touched, setTouched] = useState<Partial<Record<keyof PromoFormValues, boolean>>>({});
  const errors = errorsOf(values);
  const set = <K extends keyof PromoFormValues>(name: K, value: PromoFormValues[K]) => {
    setValues((current) => ({ ...current, [name]: value }));
    setTouched((current) => ({ ...current, [name]: true }));
  };
  const bind = (name: TextName) => ({
    controlId: `promo-${name.replaceAll('_', '-')}`,
    value: values[name],
    error: touched[name] ? errors[name] : undefined,
    onChange: (event: ChangeEvent<HTMLInputElement>) => set(name, event.target.value),
    onBlur: () => setTouched((current) => ({ ...current, [name]: true })),
  });

  return (
    <FormDialog
      show={show}
      title={promoCode ? 'Редактировать промокод' : 'Новый промокод'}
      onHide={onHide}
      onSubmit={() => onSave(bodyOf(values))}
      onEntered={() => codeRef.current?.focus()}
      saving={saving}
      error={error}
      submitDisabled={Object.keys(errors).length > 0}
      width="model"
    >
      <div className="row g-3 mb-3">
        <TextField label="Код" className="col-12 col-md-6" ref={codeRef} maxLength={32} {...bind('code')} />
        <Field controlId="promo-kind" label="Что даёт" className="col-12 col-md-6">
          <Form.Select
            value={values.kind}
            onChange={(event) => set('kind', event.target.value as PromoFormValues['kind'])}
          >
            <option value="credits">Кредиты</option>
            <option value="tariff">Тариф на N дней</option>
          </Form.Select>
        </Field>
        {values.kind === 'credits' ? (
          <TextField label="Кредитов" className="col-12 col-md-6" type="number" min={1} step="1" {...bind('credits')} />
        ) : (
          <>
            <Field
              controlId="promo-tariff-id"
              label="Тариф"
              className="col-12 col-md-6"
              error={touched.tariff_id ? errors.tariff_id : undefined}
            >
              <TariffSelect value={values.tariff_id} tariffs={tariffs} onChange={(value) => set('tariff_id', value)}>
                <option value="">Выберите тариф</option>
              </TariffSelect>
            </Field>
            <TextField
              label="Дней"
              className="col-12 col-md-6"
              type="number"
              min={1}
              step="1"
              {...bind('tariff_days')}
            />
          </>
        )}
        <TextField
          label="Всего использований"
          className="col-12 col-md-6"
          type="number"
          min={1}
          step="1"
          {...bind('max_uses')}
        />
        <TextField label="Действует с" className="col-12 col-md-6" type="datetime-local" {...bind('valid_from')} />
        <TextField label="Действует до" className="col-12 col-md-6" type="datetime-local" {...bind('valid_until')} />
      </div>
      <Form.Check
        id="promo-is-active"
        label="Активен"
        checked={values.is_active}
        onChange={(event) => set('is_active', event.target.checked)}
      />
    </FormDialog>
  );
}
