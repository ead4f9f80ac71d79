import type { AiModel } from '@gpt/contracts';
import { useRef, useState } from 'react';
import Form from 'react-bootstrap/Form';

import { FormDialog } from '@/components/ui/form-dialog';
import { TextField } from '@/components/ui/form-field';

import type { ModelBody } from '../api/save-model';

interface ModelFormValues {
  model: string;
  description: string;
  input_price_per_1m: string;
  output_price_per_1m: string;
  /** Empty: the model generates no images. */
  image_price: string;
  /** Empty: the model does not transcribe voice messages. */
  transcription_price_per_minute: string;
  /** Empty: the model does not read answers aloud. */
  speech_price_per_1k_chars: string;
  is_active: boolean;
}

const REQUIRED = 'Заполните обязательные поля';
const PRICE_INVALID = 'Цена должна быть числом не меньше 0';

const optionalPriceText = (price: string | null) => (price === null ? '' : String(Number(price)));

function formOf(model: AiModel | null): ModelFormValues {
  if (!model) {
    return {
      model: '',
      description: '',
      input_price_per_1m: '0',
      output_price_per_1m: '0',
      image_price: '',
      transcription_price_per_minute: '',
      speech_price_per_1k_chars: '',
      is_active: true,
    };
  }
  return {
    model: model.model,
    description: model.description ?? '',
    // "2.500000" → "2.5": the field shows the number, the server keeps 6 decimals.
    input_price_per_1m: String(Number(model.input_price_per_1m)),
    output_price_per_1m: String(Number(model.output_price_per_1m)),
    image_price: optionalPriceText(model.image_price),
    transcription_price_per_minute: optionalPriceText(model.transcription_price_per_minute),
    speech_price_per_1k_chars: optionalPriceText(model.speech_price_per_1k_chars),
    is_active: model.is_active,
  };
}

const PRICE_FIELDS = [
  { name: 'input_price_per_1m', controlId: 'model-input-price', label: 'Цена ввода, $ за 1M токенов' },
  { name: 'output_price_per_1m', controlId: 'model-output-price', label: 'Цена вывода, $ за 1M токенов' },
  { name: 'image_price', controlId: 'model-image-price', label: 'Цена за изображение, $' },
  {
    name: 'transcription_price_per_minute',
    controlId: 'model-transcription-price',
    label: 'Распознавание речи, $ за минуту',
  },
  { name: 'speech_price_per_1k_chars', controlId: 'model-speech-price', label: 'Озвучивание, $ за 1 000 символов' },
] as const;

/** Prices left empty when the model does not do that kind of work. */
const OPTIONAL_PRICES = ['image_price', 'transcription_price_per_minute', 'speech_price_per_1k_chars'] as const;

const priceOf = (text: string) => (text.trim() === '' ? Number.NaN : Number(text));
/** An optional price may be left empty: the model does not do that kind of work. */
const optionalPriceOf = (text: string) => (text.trim() === '' ? null : Number(text));

/** The first problem of the form, if any (docs/product.md, Validation: prices are numbers; the name is required). */
function problemOf(values: ModelFormValues): string | null {
  if (values.model.trim() === '') return REQUIRED;
  for (const price of [values.input_price_per_1m, values.output_price_per_1m]) {
    const n = priceOf(price);
    if (!Number.isFinite(n) || n < 0) return PRICE_INVALID;
  }
  for (const name of OPTIONAL_PRICES) {
    const n = optionalPriceOf(values[name]);
    if (n !== null && (!Number.isFinite(n) || n < 0)) return PRICE_INVALID;
  }
  return null;
}

/**
 * Add / edit dialog of an AI model (docs/product.md, Screens, Validation and Limits: 50vw, prices with step 0.0001, converted to
 * numbers on save). Mount it with a key of the edited model so the fields start from it.
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
  const nameRef = useRef<HTMLInputElement>(null);
  const [values, setValues] = useState<ModelFormValues>(() => formOf(model));
  const [problem, setProblem] = useState<string | null>(null);
  const set = <K extends keyof ModelFormValues>(name: K, value: ModelFormValues[K]) =>
    setValues((current) => ({ ...current, [name]: value }));

  function submit() {
    const found = problemOf(values);
    setProblem(found);
    if (found) return;
    onSave({
      model: values.model.trim(),
      description: values.description.trim() || null,
      input_price_per_1m: priceOf(values.input_price_per_1m),
      output_price_per_1m: priceOf(values.output_price_per_1m),
      image_price: optionalPriceOf(values.image_price),
      transcription_price_per_minute: optionalPriceOf(values.transcription_price_per_minute),
      speech_price_per_1k_chars: optionalPriceOf(values.speech_price_per_1k_chars),
      is_active: values.is_active,
    });
  }

  return (
    <FormDialog
      show={show}
      title={model ? 'Редактировать модель' : 'Добавить модель'}
      onHide={onHide}
      onSubmit={submit}
      onEntered={() => nameRef.current?.focus()}
      saving={saving}
      error={problem ?? error}
      width="model"
    >
      <TextField
        controlId="model-name"
        label="Модель"
        className="mb-3"
        ref={nameRef}
        value={values.model}
        maxLength={100}
        placeholder="gpt-4o-mini"
        onChange={(event) => set('model', event.target.value)}
      />
      <TextField
        controlId="model-description"
        label="Описание"
        className="mb-3"
        as="textarea"
        rows={3}
        value={values.description}
        maxLength={2000}
        onChange={(event) => set('description', event.target.value)}
      />
      <div className="row g-3 mb-3">
        {PRICE_FIELDS.map((price) => (
          <TextField
            key={price.name}
            controlId={price.controlId}
            label={price.label}
            className="col-12 col-md-4"
            type="number"
            step="0.0001"
            min={0}
            value={values[price.name]}
            onChange={(event) => set(price.name, event.target.value)}
          />
        ))}
      </div>
      <Form.Check
        id="model-is-active"
        label="Активна"
        checked={values.is_active}
        onChange={(event) => set('is_active', event.target.checked)}
      />
    </FormDialog>
  );
}
