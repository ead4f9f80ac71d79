import { usePasswordResetChannel, useSetPasswordResetChannel } from '../api/password-reset-channel';
import { AccountSwitch } from './account-switch';

/**
 * «Присылать ссылку для смены пароля в Telegram»: the owner's choice to get reset links in the linked Telegram
 * account instead of the e-mail (docs/security.md, Password recovery); linking another account turns it off.
 */
export function PasswordResetChannelSwitch({ telegramId }: { telegramId: number }) {
  return (
    <AccountSwitch
      label="Присылать ссылку для смены пароля в Telegram, а не на e-mail"
      hint="Включайте, только если этот Telegram — ваш: кто держит его, сможет сменить пароль."
      read={usePasswordResetChannel(telegramId)}
      write={useSetPasswordResetChannel()}
      on={(value) => value.telegram}
      body={(telegram) => ({ telegram })}
      readFailed="Не удалось узнать, куда приходят ссылки для смены пароля."
    />
  );
}
