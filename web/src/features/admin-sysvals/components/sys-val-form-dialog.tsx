import { SysValCreateRequest, type SysVal } from '@gpt/contracts';

import { FormDialog } from '@/components/ui/form-dialog';
import { TextField } from '@/components/ui/form-field';
import { useContractForm } from '@/lib/contract-form';

/**
 * Add / edit dialog of a setting (docs/product.md, Screens and Validation): a new one needs key and value, an edit
 * changes the value only, the key is shown read-only. The contract's SysValCreateRequest checks both fields (a stored
 * key passes its rule): on a save, and then once a field was left, «Заполните все поля» or another rule's text shows
 * under its field.
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
  onSave: (values: SysValCreateRequest) => void;
}) {
  const form = useContractForm(SysValCreateRequest, { key: setting?.key ?? '', value: setting?.value ?? '' });

  return (
    <FormDialog
      show={show}
      title={setting ? 'Редактировать настройку' : 'Добавить настройку'}
      onHide={onHide}
      onSubmit={() => void form.handleSubmit(onSave)()}
      onEntered={() => form.setFocus(setting ? 'value' : 'key')}
      saving={saving}
      error={error}
      submitLabel={setting ? 'Сохранить' : 'Добавить'}
    >
      <TextField
        controlId="sys-val-key"
        label="Ключ"
        className="mb-3"
        readOnly={setting !== null}
        plaintext={setting !== null}
        controlClassName={setting ? 'font-monospace fw-medium' : 'font-monospace'}
        maxLength={100}
        placeholder="max_tokens_per_request"
        {...form.field('key')}
      />
      <TextField
        controlId="sys-val-value"
        label="Значение"
        as="textarea"
        rows={3}
        maxLength={10000}
        {...form.field('value')}
      />
    </FormDialog>
  );
}
