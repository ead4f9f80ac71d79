import { PageHeader } from '@/components/ui/page-header';
import { TelegramSandbox } from '@/features/telegram-sandbox/components/telegram-sandbox';

import { PageContainer } from '../layouts/page-container';

/** The bot's local Telegram sandbox (the embedded default has no bot token). */
export function TelegramSandboxPage() {
  return (
    <PageContainer narrow>
      <PageHeader title="Песочница Telegram-бота" lead="Бот целиком, от /start до оплаты, прямо в браузере" />
      <TelegramSandbox />
    </PageContainer>
  );
}
