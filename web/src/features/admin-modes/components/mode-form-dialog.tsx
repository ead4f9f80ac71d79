import { MODE_PROMPT_MAX_CHARS, type ChatMode } from '@gpt/contracts';
import { useRef } from 'react';
import Form from 'react-bootstrap/Form';

import { FormDialog } from '@/components/ui/form-dialog';
import { TextField } from '@/components/ui/form-field';
import { useFormFields } from '@/lib/use-form-fields';

import type { ModeBody } from '../api/save-mode';
import { bodyOf, formOf, validateMode } from '../validation';

/**
 * Create / edit dialog of a chat mode. Mount it with a key of the edited mode so the fields start
 * from it. A rule's text shows under its field once the field was touched; saving is blocked while
 * a rule fails.
 */
export function ModeFormDialog({
  show,
  mode,
  saving,
  error,
  onHide,
  onSave,
}: {
  show: boolean;
  /** null: a new mode. */
  mode: ChatMode | null;
  saving: boolean;
  error: string | null;
  onHide: () => void;
  onSave: (body: ModeBody) => void;
}) {
  const nameRef = useRef<HTMLInputElement>(null);
  const form = useFormFields(() => formOf(mode), validateMode);
  const { values, set } = form;
  const bind = (name: Parameters<typeof form.bind>[0]) => form.bind(name, 'mode');
  const promptLength = values.system_prompt.trim().length;

  return (
    <FormDialog
      show={show}
      title={mode ? 'Редактировать режим' : 'Новый режим'}
      onHide={onHide}
      onSubmit={() => onSave(bodyOf(values))}
      onEntered={() => nameRef.current?.focus()}
      saving={saving}
      error={error}
      submitDisabled={form.invalid}
      width="model"
    >
      <div className="row g-3 mb-3">
        <TextField label="Название" className="col-12 col-md-6" ref={nameRef} maxLength={100} {...bind('name')} />
        <TextField label="Эмодзи" className="col-6 col-md-3" maxLength={16} placeholder="🤖" {...bind('emoji')} />
        <TextField label="Порядок" className="col-6 col-md-3" type="number" step="1" min={0} {...bind('sort_order')} />
      </div>
      <TextField
        label="Краткое описание"
        className="mb-3"
        maxLength={200}
        placeholder="Показывается в списке /mode"
        {...bind('description')}
      />
      <TextField
        label="Системный промпт"
        className="mb-3"
        as="textarea"
        rows={8}
        hint={`${promptLength.toLocaleString('ru-RU')} из ${MODE_PROMPT_MAX_CHARS.toLocaleString('ru-RU')} символов`}
        {...bind('system_prompt')}
      />
      <Form.Check
        id="mode-is-active"
        className="mb-2"
        label="Активен"
        checked={values.is_active}
        onChange={(event) => set('is_active', event.target.checked)}
        isInvalid={Boolean(form.errors.is_active)}
        feedback={form.errors.is_active}
        feedbackType="invalid"
      />
      <Form.Check
        id="mode-is-default"
        label="Режим по умолчанию"
        checked={values.is_default}
        onChange={(event) => set('is_default', event.target.checked)}
      />
    </FormDialog>
  );
}
