import { personName, type AdminUserRow as AdminUser } from '@gpt/contracts';

import { DetailList, ViewDialog } from '@/components/ui/view-dialog';
import { formatDateTime } from '@/lib/dates';
import { exactUsd } from '@/lib/money';

import { formatCredits, formatRoubles, tariffLabel, utmLabel } from '../format';
import { roleLabel } from '../types';
import { TelegramBlockedBadge } from './telegram-blocked-badge';

/** 'Информация о пользователе': every field of the row. */
export function UserViewDialog({ user, onHide }: { user: AdminUser | null; onHide: () => void }) {
  return (
    <ViewDialog show={user !== null} title="Информация о пользователе" onHide={onHide}>
      {user && (
        <DetailList
          items={[
            { label: 'ID', value: user.id },
            { label: 'Email', value: user.email },
            // The e-mail has its own row: here the Telegram side's name, if any.
            { label: 'Пользователь', value: personName({ ...user, email: null }) || null },
            {
              label: 'Telegram ID',
              value:
                user.telegram_id === null ? null : (
                  <>
                    {user.telegram_id}
                    <TelegramBlockedBadge since={user.telegram_blocked_at} />
                  </>
                ),
            },
            { label: 'Роль', value: roleLabel(user.role) },
            { label: 'UTM-источник', value: utmLabel(user.utm_source) },
            { label: 'Пригласил', value: user.referrer },
            { label: 'Тариф', value: tariffLabel(user.tariff_name) },
            { label: 'Кредиты', value: formatCredits(user.credits) },
            { label: 'Включённые кредиты', value: formatCredits(user.included_credits) },
            { label: 'Потрачено', value: exactUsd(user.money_spent) },
            { label: 'Пополнено', value: formatRoubles(user.money_deposited) },
            { label: 'Сообщений', value: user.messages_count },
            { label: 'Дата регистрации', value: formatDateTime(user.created_at) },
          ]}
        />
      )}
    </ViewDialog>
  );
}
