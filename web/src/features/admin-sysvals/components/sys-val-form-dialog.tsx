import type { SysVal } from '@gpt/contracts';
import { useRef, useState } from 'react';

import { FormDialog } from '@/components/ui/form-dialog';
import { TextField } from '@/components/ui/form-field';

const FILL_ALL = 'Заполните все поля';

/**
 * Add / edit dialog of a setting (docs/product.md, Screens and Validation): a new one needs key and value ('Заполните все поля');
 * an edit changes the value only, the key is shown read-only.
 */
export function SysValFormDialog({
  show,
  setting,
  saving,
  error,
  onHide,
  onSave,
}: {
  show: boolean;
  /** null: a new setting. */
  setting: SysVal | null;
  saving: boolean;
  error: string | null;
  onHide: () => void;
  onSave: (values: { key: string; value: string }) => void;
}) {
  const firstRef = useRef<HTMLInputElement & HTMLTextAreaElement>(null);
  const [key, setKey] = useState(setting?.key ?? '');
  const [value, setValue] = useState(setting?.value ?? '');
  const [problem, setProblem] = useState<string | null>(null);

  function submit() {
    const missing = key.trim() === '' || value.trim() === '';
    setProblem(missing ? FILL_ALL : null);
    if (!missing) onSave({ key: key.trim(), value: value.trim() });
  }

  return (
    <FormDialog
      show={show}
      title={setting ? 'Редактировать настройку' : 'Добавить настройку'}
      onHide={onHide}
      onSubmit={submit}
      onEntered={() => firstRef.current?.focus()}
      saving={saving}
      error={problem ?? error}
      submitLabel={setting ? 'Сохранить' : 'Добавить'}
    >
      <TextField
        controlId="sys-val-key"
        label="Ключ"
        className="mb-3"
        ref={setting ? undefined : firstRef}
        value={key}
        readOnly={setting !== null}
        plaintext={setting !== null}
        controlClassName={setting ? 'font-monospace fw-medium' : 'font-monospace'}
        maxLength={100}
        placeholder="max_tokens_per_request"
        onChange={(event) => setKey(event.target.value)}
      />
      <TextField
        controlId="sys-val-value"
        label="Значение"
        ref={setting ? firstRef : undefined}
        as="textarea"
        rows={3}
        value={value}
        maxLength={10000}
        onChange={(event) => setValue(event.target.value)}
      />
    </FormDialog>
  );
}
