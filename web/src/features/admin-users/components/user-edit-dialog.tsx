import type {
  AdminUserRow as AdminUser,
  AdminUserUpdateRequest as AdminUserUpdate,
  TariffOption,
} from '@gpt/contracts';
import { useRef, useState } from 'react';
import Form from 'react-bootstrap/Form';

import { FormDialog } from '@/components/ui/form-dialog';
import { Field, TextField } from '@/components/ui/form-field';
import { errorMessage } from '@/lib/api-client';

import { useUpdateAdminUser } from '../api/update-admin-user';
import { parseDeposit } from '../format';
import { TariffSelect } from '@/components/ui/tariff-select';

/**
 * 'Редактировать пользователя': e-mail, role, tariff and a credit deposit. Mount it with a key
 * of the edited user so the fields start from that user.
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
  const save = useUpdateAdminUser();
  const emailRef = useRef<HTMLInputElement>(null);
  const [email, setEmail] = useState(user?.email ?? '');
  const [role, setRole] = useState<AdminUserUpdate['role']>(user?.role === 'admin' ? 'admin' : 'user');
  const [tariffId, setTariffId] = useState(user?.tariff_id === null || !user ? '' : String(user.tariff_id));
  const [deposit, setDeposit] = useState('0');
  const known = tariffs.some((tariff) => String(tariff.id) === tariffId);

  function submit() {
    if (!user) return;
    save.mutate(
      {
        id: user.id,
        email: email.trim() || undefined,
        role,
        tariff_id: tariffId === '' ? null : Number(tariffId),
        depositAmount: parseDeposit(deposit),
      },
      { onSuccess: onSaved },
    );
  }

  return (
    <FormDialog
      show={user !== null}
      title="Редактировать пользователя"
      onHide={onHide}
      onSubmit={submit}
      onEntered={() => emailRef.current?.focus()}
      saving={save.isPending}
      error={save.isError ? errorMessage(save.error, 'Ошибка сохранения изменений') : null}
    >
      <TextField
        controlId="user-edit-email"
        label="Email"
        className="mb-3"
        ref={emailRef}
        type="email"
        value={email}
        onChange={(e) => setEmail(e.target.value)}
      />
      <Field controlId="user-edit-role" label="Роль" className="mb-3">
        <Form.Select value={role} onChange={(e) => setRole(e.target.value === 'admin' ? 'admin' : 'user')}>
          <option value="user">Пользователь</option>
          <option value="admin">Администратор</option>
        </Form.Select>
      </Field>
      <Field controlId="user-edit-tariff" label="Тариф" className="mb-3">
        <TariffSelect value={tariffId} tariffs={tariffs} onChange={setTariffId}>
          {tariffId === '' && <option value="">Не указан</option>}
          {!known && tariffId !== '' && <option value={tariffId}>{user?.tariff_name ?? tariffId}</option>}
        </TariffSelect>
      </Field>
      <TextField
        controlId="user-edit-deposit"
        label="Пополнение кредитов"
        hint="Кредиты, которые будут добавлены к балансу пользователя."
        type="number"
        min={0}
        step={1}
        inputMode="numeric"
        value={deposit}
        onChange={(e) => setDeposit(e.target.value)}
      />
    </FormDialog>
  );
}
