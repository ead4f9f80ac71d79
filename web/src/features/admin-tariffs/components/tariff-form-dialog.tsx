import { TariffInput, type Tariff } from '@gpt/contracts';
import Form from 'react-bootstrap/Form';

import { FormDialog } from '@/components/ui/form-dialog';
import { TextField } from '@/components/ui/form-field';
import { useContractForm } from '@/lib/contract-form';

import type { TariffBody } from '../api/save-tariff';

/** docs/product.md, Validation and Limits: price step 0.01 from 0; credits per rouble from 1; included credits from 0. */
const NUMBER_FIELDS = [
  { name: 'monthly_price', label: 'Цена в месяц, ₽', step: '0.01', min: 0 },
  { name: 'credits_per_ruble', label: 'Кредитов за 1 ₽', step: '1', min: 1 },
  { name: 'included_credits', label: 'Включённые кредиты', step: '1', min: 0 },
] as const;

/** The form starts from the tariff, or a new one's docs/product.md, Data defaults: price 0, 100 credits per rouble, 0 included, active. */
function formOf(tariff: Tariff | null): TariffBody {
  return {
    name: tariff?.name ?? '',
    description: tariff?.description ?? '',
    monthly_price: tariff?.monthly_price ?? '0',
    credits_per_ruble: tariff?.credits_per_ruble ?? 100,
    included_credits: tariff?.included_credits ?? 0,
    can_generate_images: tariff?.can_generate_images ?? false,
    is_active: tariff?.is_active ?? true,
  };
}

/**
 * Create / edit dialog of a tariff (docs/product.md, Screens and Validation). Mount it with a key of the edited tariff so the
 * fields start from it. The contract's TariffInput checks the fields: a rule's text shows under its field once the
 * field was changed or left; saving is blocked while a rule fails.
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
  const form = useContractForm(TariffInput, formOf(tariff), 'all');

  return (
    <FormDialog
      show={show}
      title={tariff ? 'Редактировать тариф' : 'Новый тариф'}
      onHide={onHide}
      onSubmit={() => void form.handleSubmit(onSave)()}
      onEntered={() => form.setFocus('name')}
      saving={saving}
      error={error}
      submitDisabled={!form.formState.isValid}
      width="model"
    >
      <TextField controlId="tariff-name" label="Название" className="mb-3" maxLength={100} {...form.field('name')} />
      <TextField
        controlId="tariff-description"
        label="Описание"
        className="mb-3"
        as="textarea"
        rows={3}
        maxLength={2000}
        {...form.field('description')}
      />
      <div className="row g-3 mb-3">
        {NUMBER_FIELDS.map(({ name, ...field }) => (
          <TextField
            key={name}
            controlId={`tariff-${name.replaceAll('_', '-')}`}
            className="col-12 col-md-4"
            type="number"
            {...field}
            // The price stays text (a decimal of kopecks, exact); the counts are numbers.
            {...form.field(name, { valueAsNumber: name !== 'monthly_price' })}
          />
        ))}
      </div>
      <Form.Check
        id="tariff-can-generate-images"
        className="mb-2"
        label="Генерация изображений"
        {...form.register('can_generate_images')}
      />
      <Form.Check id="tariff-is-active" label="Активен" {...form.register('is_active')} />
    </FormDialog>
  );
}
