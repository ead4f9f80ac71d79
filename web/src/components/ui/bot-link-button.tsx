import Button, { type ButtonProps } from 'react-bootstrap/Button';

import { useBotUrl } from '@/lib/use-bot-url';

import { Icon } from './icons';

export interface BotLinkButtonProps extends Omit<ButtonProps, 'href' | 'as'> {
  label?: string;
}

/** «Open the bot»: the Telegram bot in a new tab; disabled, saying why, while the bot is not connected. */
export function BotLinkButton({ label = 'Открыть бота', onClick, children, ...rest }: BotLinkButtonProps) {
  const botUrl = useBotUrl();
  const target: ButtonProps = botUrl
    ? { href: botUrl, target: '_blank', rel: 'noopener noreferrer', onClick }
    : { disabled: true, title: 'Бот ещё не подключён к Telegram' };
  return (
    <Button {...rest} {...target}>
      <Icon name="send" size={18} className="me-2" />
      {children ?? label}
    </Button>
  );
}
