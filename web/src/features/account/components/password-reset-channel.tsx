import { useId } from 'react';
import Form from 'react-bootstrap/Form';

import { errorMessage } from '@/lib/api-client';

import { usePasswordResetChannel, useSetPasswordResetChannel } from '../api/password-reset-channel';

/**
 * «Присылать ссылку для смены пароля в Telegram»: the owner's choice to get reset links in the linked Telegram
 * account instead of the e-mail (docs/security.md, Password recovery); linking another account turns it off.
 */
export function PasswordResetChannelSwitch({ telegramId }: { telegramId: number }) {
  const id = useId();
  const channel = usePasswordResetChannel(telegramId);
  const save = useSetPasswordResetChannel();
  const failed = channel.isError
    ? errorMessage(channel.error, 'Не удалось узнать, куда приходят ссылки для смены пароля.')
    : save.isError
      ? errorMessage(save.error, 'Не удалось сохранить выбор.')
      : null;
  return (
    <Form.Group className="mt-3" controlId={id}>
      <Form.Check
        type="switch"
        label="Присылать ссылку для смены пароля в Telegram, а не на e-mail"
        checked={channel.data?.telegram ?? false}
        disabled={!channel.isSuccess || save.isPending}
        onChange={(event) => save.mutate({ telegram: event.target.checked })}
      />
      <Form.Text className="d-block">
        Включайте, только если этот Telegram — ваш: кто держит его, сможет сменить пароль.
      </Form.Text>
      {failed && <div className="text-danger small mt-1">{failed}</div>}
    </Form.Group>
  );
}
