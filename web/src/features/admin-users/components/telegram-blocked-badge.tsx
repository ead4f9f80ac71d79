import Badge from 'react-bootstrap/Badge';

import { formatMoscowDateTime } from '@/lib/dates';

/**
 * «Бот заблокирован»: the user blocked the bot in Telegram (the bot sends them nothing until they write
 * again); the title tells since when, in Moscow time. Nothing for a user who has not.
 */
export function TelegramBlockedBadge({ since }: { since: string | null }) {
  if (since === null) return null;
  return (
    <Badge
      bg="warning"
      text="dark"
      className="status-badge ms-1"
      title={`Заблокировал бота ${formatMoscowDateTime(since)}`}
      data-testid="telegram-blocked"
    >
      Бот заблокирован
    </Badge>
  );
}
