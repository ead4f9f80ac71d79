import { useParams } from 'react-router-dom';

import { TelegramSignIn } from '@/features/auth/components/telegram-sign-in';

import { PageContainer } from '../layouts/page-container';

/** /telegram-sign-in/{token}: the bot's «🌐 Открыть в браузере» and /web link. */
export function TelegramSignInPage() {
  const { token = '' } = useParams();
  return (
    <PageContainer>
      <TelegramSignIn key={token} token={token} />
    </PageContainer>
  );
}
