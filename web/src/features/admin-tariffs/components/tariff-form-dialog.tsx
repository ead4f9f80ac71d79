import type { Tariff } from '@gpt/contracts';
import { useRef, useState } from 'react';
import Form from 'react-bootstrap/Form';

import { FormDialog } from '@/components/ui/form-dialog';

import type { TariffBody } from '../api/save-tariff';
import { emptyTariffForm, validateTariff, type TariffFormValues } from '../validation';

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
 * Create / edit dialog of a tariff (spec §2, §5). Mount it with a key of the edited tariff so the
 * fields start from it. A rule's text shows under its field once the field was touched; saving
 * is blocked while a rule fails.
 */
export function TariffFormDialog({
  show,
  tariff,
  saving,
  onHide,
  onSave,
}: {
  show: boolean;
  /** null: a new tariff. */
  tariff: Tariff | null;
  saving: boolean;
  onHide: () => void;
  onSave: (body: TariffBody) => void;
}) {
  const nameRef = useRef<HTMLInputElement>(null);
  const [values, setValues] = useState<TariffFormValues>(() => formOf(tariff));
  const [touched, setTouched] = useState<Partial<Record<keyof TariffFormValues, boolean>>>({});
  const errors = validateTariff(values);
  const invalid = Object.keys(errors).length > 0;
  const set = <K extends keyof TariffFormValues>(name: K, value: TariffFormValues[K]) => {
    setValues((current) => ({ ...current, [name]: value }));
    setTouched((current) => ({ ...current, [name]: true }));
  };
  const shown = (name: 'name' | 'credits_per_ruble') => (touched[name] ? errors[name] : undefined);

  return (
    <FormDialog
      show={show}
      title={tariff ? 'Редактировать тариф' : 'Новый тариф'}
      onHide={onHide}
      onSubmit={() => onSave(bodyOf(values))}
      onEntered={() => nameRef.current?.focus()}
      saving={saving}
      submitDisabled={invalid}
      width="model"
    >
      <Form.Group className="mb-3" controlId="tariff-name">
        <Form.Label>Название</Form.Label>
        <Form.Control
          ref={nameRef}
          value={values.name}
          maxLength={100}
          isInvalid={Boolean(shown('name'))}
          onChange={(event) => set('name', event.target.value)}
          onBlur={() => setTouched((current) => ({ ...current, name: true }))}
        />
        <Form.Control.Feedback type="invalid">{shown('name')}</Form.Control.Feedback>
      </Form.Group>
      <Form.Group className="mb-3" controlId="tariff-description">
        <Form.Label>Описание</Form.Label>
        <Form.Control
          as="textarea"
          rows={3}
          value={values.description}
          maxLength={2000}
          onChange={(event) => set('description', event.target.value)}
        />
      </Form.Group>
      <div className="row g-3 mb-3">
        <Form.Group className="col-12 col-md-4" controlId="tariff-monthly-price">
          <Form.Label>Цена в месяц, ₽</Form.Label>
          <Form.Control
            type="number"
            step="0.01"
            min={0}
            value={values.monthly_price}
            onChange={(event) => set('monthly_price', event.target.value)}
          />
        </Form.Group>
        <Form.Group className="col-12 col-md-4" controlId="tariff-credits-per-ruble">
          <Form.Label>Кредитов за 1 ₽</Form.Label>
          <Form.Control
            type="number"
            step="1"
            min={1}
            value={values.credits_per_ruble}
            isInvalid={Boolean(shown('credits_per_ruble'))}
            onChange={(event) => set('credits_per_ruble', event.target.value)}
            onBlur={() => setTouched((current) => ({ ...current, credits_per_ruble: true }))}
          />
          <Form.Control.Feedback type="invalid">{shown('credits_per_ruble')}</Form.Control.Feedback>
        </Form.Group>
        <Form.Group className="col-12 col-md-4" controlId="tariff-included-credits">
          <Form.Label>Включённые кредиты</Form.Label>
          <Form.Control
            type="number"
            step="1"
            min={0}
            value={values.included_credits}
            onChange={(event) => set('included_credits', event.target.value)}
          />
        </Form.Group>
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
