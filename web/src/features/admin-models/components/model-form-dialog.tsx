import { AiModelInput, type AiModel } from '@gpt/contracts';
import Form from 'react-bootstrap/Form';

import { FormDialog } from '@/components/ui/form-dialog';
import { TextField } from '@/components/ui/form-field';
import { useContractForm } from '@/lib/contract-form';

import type { ModelBody } from '../api/save-model';

/** "2.500000" → "2.5": the field shows the number, the server keeps 6 decimals. */
const priceText = (price: string) => String(Number(price));
const optionalPriceText = (price: string | null) => (price === null ? null : priceText(price));

/** The form starts from the model, or a new one's: free, no image, voice or speech prices, active. */
function formOf(model: AiModel | null): ModelBody {
  return {
    model: model?.model ?? '',
    description: model?.description ?? '',
    input_price_per_1m: model ? priceText(model.input_price_per_1m) : '0',
    output_price_per_1m: model ? priceText(model.output_price_per_1m) : '0',
    image_price: optionalPriceText(model?.image_price ?? null),
    transcription_price_per_minute: optionalPriceText(model?.transcription_price_per_minute ?? null),
    speech_price_per_1k_chars: optionalPriceText(model?.speech_price_per_1k_chars ?? null),
    is_active: model?.is_active ?? true,
  };
}

const PRICE_FIELDS = [
  { name: 'input_price_per_1m', controlId: 'model-input-price', label: 'Цена ввода, $ за 1M токенов' },
  { name: 'output_price_per_1m', controlId: 'model-output-price', label: 'Цена вывода, $ за 1M токенов' },
  { name: 'image_price', controlId: 'model-image-price', label: 'Цена за изображение, $', optional: true },
  {
    name: 'transcription_price_per_minute',
    controlId: 'model-transcription-price',
    label: 'Распознавание речи, $ за минуту',
    optional: true,
  },
  {
    name: 'speech_price_per_1k_chars',
    controlId: 'model-speech-price',
    label: 'Озвучивание, $ за 1 000 символов',
    optional: true,
  },
] as const;

/** An optional price left empty is null: the model does not do that kind of work. */
const emptyIsNull = { setValueAs: (text: string | null) => (text?.trim() ? text : null) };

/**
 * Add / edit dialog of an AI model (docs/product.md, Screens, Validation and Limits: 50vw, prices with step 0.0001).
 * Mount it with a key of the edited model so the fields start from it. The contract's AiModelInput checks the
 * fields: on a save, and then once a field was left, a rule's text shows under its field.
 */
export function ModelFormDialog({
  show,
  model,
  saving,
  error,
  onHide,
  onSave,
}: {
  show: boolean;
  /** null: a new model. */
  model: AiModel | null;
  saving: boolean;
  error: string | null;
  onHide: () => void;
  onSave: (body: ModelBody) => void;
}) {
  const form = useContractForm(AiModelInput, formOf(model));

  return (
    <FormDialog
      show={show}
      title={model ? 'Редактировать модель' : 'Добавить модель'}
      onHide={onHide}
      onSubmit={() => void form.handleSubmit(onSave)()}
      onEntered={() => form.setFocus('model')}
      saving={saving}
      error={error}
      width="model"
    >
      <TextField
        controlId="model-name"
        label="Модель"
        className="mb-3"
        maxLength={100}
        placeholder="gpt-4o-mini"
        {...form.field('model')}
      />
      <TextField
        controlId="model-description"
        label="Описание"
        className="mb-3"
        as="textarea"
        rows={3}
        maxLength={2000}
        {...form.field('description')}
      />
      <div className="row g-3 mb-3">
        {PRICE_FIELDS.map(({ name, controlId, label, ...price }) => (
          <TextField
            key={name}
            controlId={controlId}
            label={label}
            className="col-12 col-md-4"
            type="number"
            step="0.0001"
            min={0}
            {...form.field(name, 'optional' in price ? emptyIsNull : undefined)}
          />
        ))}
      </div>
      <Form.Check id="model-is-active" label="Активна" {...form.register('is_active')} />
    </FormDialog>
  );
}
