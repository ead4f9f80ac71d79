import Button, { type ButtonProps } from 'react-bootstrap/Button';

import { useBotUrl } from '@/lib/use-bot-url';

import { Icon } from './icons';

export interface BotLinkButtonProps extends Omit<ButtonProps, 'href' | 'as'> {
  label?: string;
  /** A /start payload: the button opens the bot with it (t.me/<bot>?start=…, or the sandbox page's ?start=…). */
  start?: string;
}

/** The bot's link with a /start payload: Telegram's, or the sandbox page's, which sends «/start payload» on «Начать». */
export function withStart(url: string, start: string | undefined): string {
  if (!start) return url;
  const link = new URL(url, window.location.href);
  link.searchParams.set('start', start);
  return link.toString();
}

/** «Open the bot»: the Telegram bot in a new tab; disabled, saying why, while the bot is not connected. */
export function BotLinkButton({ label = 'Открыть бота', start, onClick, children, ...rest }: BotLinkButtonProps) {
  const botUrl = useBotUrl();
  const target: ButtonProps = botUrl
    ? { href: withStart(botUrl, start), target: '_blank', rel: 'noopener noreferrer', onClick }
    : { disabled: true, title: 'Бот ещё не подключён к Telegram' };
  return (
    <Button {...rest} {...target}>
      <Icon name="send" size={18} className="me-2" />
      {children ?? label}
    </Button>
  );
}
