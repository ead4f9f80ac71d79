import { AdminUserEditForm, type AdminUserRow as AdminUser, type TariffOption } from '@gpt/contracts';
import { Controller } from 'react-hook-form';
import Form from 'react-bootstrap/Form';

import { FormDialog } from '@/components/ui/form-dialog';
import { Field, TextField } from '@/components/ui/form-field';
import { TariffSelect } from '@/components/ui/tariff-select';
import { useActionKey } from '@/lib/action-key';
import { errorMessage } from '@/lib/api-client';
import { numberInput, useContractForm } from '@/lib/contract-form';

import { useUpdateAdminUser } from '../api/update-admin-user';

/** An empty e-mail is left out (a Telegram user may have none); an empty deposit adds nothing. */
const emptyIsLeftOut = { setValueAs: (text?: string) => (text?.trim() ? text : undefined) };

/**
 * 'Редактировать пользователя': e-mail, role, tariff and a credit deposit (docs/product.md, Validation: a whole
 * number of credits, at least 0) with its reason, kept in «Журнал действий». Mount it with a key of the edited user
 * so the fields start from that user. The contract's AdminUserEditForm checks the fields (a deposit needs a reason):
 * on a save, and then once a field was left, a rule's text shows under its field.
 */
export function UserEditDialog({
  user,
  tariffs,
  onHide,
  onSaved,
}: {
  user: AdminUser | null;
  tariffs: TariffOption[];
  onHide: () => void;
  onSaved: (user: AdminUser) => void;
}) {
  const save = useUpdateAdminUser(useActionKey(user !== null));
  const form = useContractForm(AdminUserEditForm, {
    email: user?.email ?? undefined,
    role: user?.role === 'admin' ? 'admin' : 'user',
    tariff_id: user?.tariff_id ?? null,
    depositAmount: 0,
  });
  const tariffId = form.watch('tariff_id');
  const known = tariffs.some((tariff) => tariff.id === tariffId);

  return (
    <FormDialog
      show={user !== null}
      title="Редактировать пользователя"
      onHide={onHide}
      onSubmit={() =>
        void form.handleSubmit((body) => {
          if (user) save.mutate({ ...body, id: user.id }, { onSuccess: onSaved });
        })()
      }
      onEntered={() => form.setFocus('email')}
      saving={save.isPending}
      error={save.isError ? errorMessage(save.error, 'Ошибка сохранения изменений.') : null}
    >
      <TextField
        controlId="user-edit-email"
        label="Email"
        className="mb-3"
        type="email"
        {...form.field('email', emptyIsLeftOut)}
      />
      <Field controlId="user-edit-role" label="Роль" className="mb-3">
        <Form.Select {...form.register('role')}>
          <option value="user">Пользователь</option>
          <option value="admin">Администратор</option>
        </Form.Select>
      </Field>
      <Controller
        control={form.control}
        name="tariff_id"
        render={({ field }) => (
          <Field controlId="user-edit-tariff" label="Тариф" className="mb-3" error={form.message('tariff_id')}>
            <TariffSelect
              value={field.value ? String(field.value) : ''}
              tariffs={tariffs}
              onChange={(value) => field.onChange(value === '' ? null : Number(value))}
            >
              {!field.value && <option value="">Не указан</option>}
              {!known && field.value && <option value={String(field.value)}>{user?.tariff_name ?? field.value}</option>}
            </TariffSelect>
          </Field>
        )}
      />
      <TextField
        controlId="user-edit-deposit"
        label="Пополнение кредитов"
        hint="Кредиты, которые будут добавлены к балансу пользователя."
        type="number"
        min={0}
        step={1}
        inputMode="numeric"
        {...form.field('depositAmount', numberInput(undefined))}
      />
      <TextField
        controlId="user-edit-reason"
        label="Причина"
        className="mt-3"
        hint="Обязательна при пополнении; видна в журнале действий."
        {...form.field('reason', emptyIsLeftOut)}
      />
    </FormDialog>
  );
}
