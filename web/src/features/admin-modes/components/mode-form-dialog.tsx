import { ChatModeInput, MODE_PROMPT_MAX_CHARS, type ChatMode } from '@gpt/contracts';
import Form from 'react-bootstrap/Form';

import { FormDialog } from '@/components/ui/form-dialog';
import { TextField } from '@/components/ui/form-field';
import { useContractForm } from '@/lib/contract-form';

import type { ModeBody } from '../api/save-mode';

function formOf(mode: ChatMode | null): ModeBody {
  return {
    name: mode?.name ?? '',
    emoji: mode?.emoji ?? '',
    description: mode?.description ?? '',
    system_prompt: mode?.system_prompt ?? '',
    sort_order: mode?.sort_order ?? 0,
    is_active: mode?.is_active ?? true,
    is_default: mode?.is_default ?? false,
  };
}

/** The rule «a default mode is active» is checked once every field passes, so each change checks it again. */
const checksActive = { deps: 'is_active' } as const;

/**
 * Create / edit dialog of a chat mode. Mount it with a key of the edited mode so the fields start
 * from it. The contract's ChatModeInput checks the fields: a rule's text shows under its field once the field was
 * changed or left; saving is blocked while a rule fails.
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
  const form = useContractForm(ChatModeInput, formOf(mode), 'all');
  const promptLength = form.watch('system_prompt').trim().length;
  const activeProblem = form.message('is_active');

  return (
    <FormDialog
      show={show}
      title={mode ? 'Редактировать режим' : 'Новый режим'}
      onHide={onHide}
      onSubmit={() => void form.handleSubmit(onSave)()}
      onEntered={() => form.setFocus('name')}
      saving={saving}
      error={error}
      submitDisabled={!form.formState.isValid}
      width="model"
    >
      <div className="row g-3 mb-3">
        <TextField
          controlId="mode-name"
          label="Название"
          className="col-12 col-md-6"
          maxLength={100}
          {...form.field('name', checksActive)}
        />
        <TextField
          controlId="mode-emoji"
          label="Эмодзи"
          className="col-6 col-md-3"
          maxLength={16}
          placeholder="🤖"
          {...form.field('emoji', checksActive)}
        />
        <TextField
          controlId="mode-sort-order"
          label="Порядок"
          className="col-6 col-md-3"
          type="number"
          step="1"
          min={0}
          {...form.field('sort_order', { ...checksActive, valueAsNumber: true })}
        />
      </div>
      <TextField
        label="Краткое описание"
        className="mb-3"
        maxLength={200}
        controlId="mode-description"
        placeholder="Показывается в списке /mode"
        {...form.field('description', checksActive)}
      />
      <TextField
        controlId="mode-system-prompt"
        label="Системный промпт"
        className="mb-3"
        as="textarea"
        rows={8}
        hint={`${promptLength.toLocaleString('ru-RU')} из ${MODE_PROMPT_MAX_CHARS.toLocaleString('ru-RU')} символов`}
        {...form.field('system_prompt', checksActive)}
      />
      <Form.Check
        id="mode-is-active"
        className="mb-2"
        label="Активен"
        {...form.register('is_active')}
        isInvalid={Boolean(activeProblem)}
        feedback={activeProblem}
        feedbackType="invalid"
      />
      <Form.Check id="mode-is-default" label="Режим по умолчанию" {...form.register('is_default', checksActive)} />
    </FormDialog>
  );
}
