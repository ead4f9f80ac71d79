import type { Tariff } from '@gpt/contracts';
import { useRef } from 'react';
import Form from 'react-bootstrap/Form';

import { FormDialog } from '@/components/ui/form-dialog';
import { TextField } from '@/components/ui/form-field';
import { useFormFields } from '@/lib/use-form-fields';

import type { TariffBody } from '../api/save-tariff';
import { emptyTariffForm, validateTariff, type TariffFormValues } from '../validation';

/** docs/product.md, Validation and Limits: price step 0.01 from 0; credits per rouble from 1; included credits from 0. */
const NUMBER_FIELDS = [
  { name: 'monthly_price', label: 'Цена в месяц, ₽', step: '0.01', min: 0 },
  { name: 'credits_per_ruble', label: 'Кредитов за 1 ₽', step: '1', min: 1 },
  { name: 'included_credits', label: 'Включённые кредиты', step: '1', min: 0 },
] as const;

function formOf(tariff: Tariff | null): TariffFormValues {
  if (!tariff) return emptyTariffForm;
  return {
    name: tariff.name,
    description: tariff.description ?? '',
    monthly_price: tariff.monthly_price,
    credits_per_ruble: String(tariff.credits_per_ruble),
    included_credits: String(tariff.included_credits),
    can_generate_images: tariff.can_generate_images,
    is_active: tariff.is_active,
  };
}

function bodyOf(values: TariffFormValues): TariffBody {
  const number = (text: string) => (text.trim() === '' ? 0 : Number(text));
  return {
    name: values.name.trim(),
    description: values.description.trim() || null,
    monthly_price: values.monthly_price.trim() === '' ? '0' : values.monthly_price.trim(),
    credits_per_ruble: number(values.credits_per_ruble),
    included_credits: number(values.included_credits),
    can_generate_images: values.can_generate_images,
    is_active: values.is_active,
  };
}

/**
 * Create / edit dialog of a tariff (docs/product.md, Screens and Validation). Mount it with a key of the edited tariff so the
 * fields start from it. A rule's text shows under its field once the field was touched; saving
 * is blocked while a rule fails.
 */
export function TariffFormDialog({
  show,
  tariff,
  saving,
  error,
  onHide,
  onSave,
}: {
  show: boolean;
  /** null: a new tariff. */
  tariff: Tariff | null;
  saving: boolean;
  error: string | null;
  onHide: () => void;
  onSave: (body: TariffBody) => void;
}) {
  const nameRef = useRef<HTMLInputElement>(null);
  const { values, invalid, set, bind: bindField } = useFormFields(() => formOf(tariff), validateTariff);
  const bind = (name: Parameters<typeof bindField>[0]) => bindField(name, 'tariff');

  return (
    <FormDialog
      show={show}
      title={tariff ? 'Редактировать тариф' : 'Новый тариф'}
      onHide={onHide}
      onSubmit={() => onSave(bodyOf(values))}
      onEntered={() => nameRef.current?.focus()}
      saving={saving}
      error={error}
      submitDisabled={invalid}
      width="model"
    >
      <TextField label="Название" className="mb-3" ref={nameRef} maxLength={100} {...bind('name')} />
      <TextField label="Описание" className="mb-3" as="textarea" rows={3} maxLength={2000} {...bind('description')} />
      <div className="row g-3 mb-3">
        {NUMBER_FIELDS.map(({ name, ...field }) => (
          <TextField key={name} className="col-12 col-md-4" type="number" {...field} {...bind(name)} />
        ))}
      </div>
      <Form.Check
        id="tariff-can-generate-images"
        className="mb-2"
        label="Генерация изображений"
        checked={values.can_generate_images}
        onChange={(event) => set('can_generate_images', event.target.checked)}
      />
      <Form.Check
        id="tariff-is-active"
        label="Активен"
        checked={values.is_active}
        onChange={(event) => set('is_active', event.target.checked)}
      />
    </FormDialog>
  );
}
