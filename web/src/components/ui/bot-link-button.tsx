import Button, { type ButtonProps } from 'react-bootstrap/Button';

import { getAppConfig } from '@/config/runtime-config';

import { Icon } from './icons';

export interface BotLinkButtonProps extends Omit<ButtonProps, 'href' | 'as'> {
  label?: string;
}

/** «Open the bot»: the Telegram bot from the runtime config, in a new tab. */
export function BotLinkButton({ label = 'Открыть бота', onClick, children, ...rest }: BotLinkButtonProps) {
  return (
    <Button {...rest} href={getAppConfig().botUrl} target="_blank" rel="noopener noreferrer" onClick={onClick}>
      <Icon name="send" size={18} className="me-2" />
      {children ?? label}
    </Button>
  );
}
