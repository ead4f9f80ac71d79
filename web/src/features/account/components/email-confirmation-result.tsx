import { useEffect } from 'react';
import { Link } from 'react-router-dom';

import { EmptyState } from '@/components/ui/empty-state';
import { SpinnerBlock } from '@/components/ui/spinner-block';
import { paths } from '@/config/paths';
import { errorMessage } from '@/lib/api-client';
import { pluralRu } from '@/lib/dates';
import type { SessionUser } from '@/lib/session/types';
import { useSession } from '@/lib/session/session';

import { useConfirmEmail } from '../api/email-confirmation';
import { useWelcomeOffer } from '../api/get-welcome-offer';
import { useWelcomeGrantArrival } from '../use-welcome-grant-arrival';

const numberFormat = new Intl.NumberFormat('ru-RU', { maximumFractionDigits: 0 });

/**
 * A signed-in visitor learns, once billing has given them, that the welcome credits are on the balance.
 * The account is confirmed now, whatever the profile read just before said (a read that failed keeps the old one).
 */
function WelcomeArrival({ user, confirmedAt }: { user: SessionUser; confirmedAt: number }) {
  const offer = useWelcomeOffer();
  const welcome = Number(user.welcome_credits ?? 0);
  useWelcomeGrantArrival({ shown: welcome, confirmed: true, offered: offer?.welcome_credits, since: confirmedAt });
  if (welcome === 0) return null;
  return (
    <span className="d-block mt-2" role="status">
      Приветственные кредиты начислены: {numberFormat.format(welcome)}{' '}
      {pluralRu(welcome, ['кредит', 'кредита', 'кредитов'])}.
    </span>
  );
}

/** /confirm-email?token=…: follows the mailed link at once and says how it went (docs/product.md, Personal account). */
export function EmailConfirmationResult({ token }: { token: string }) {
  const { user, token: session } = useSession();
  const confirm = useConfirmEmail();
  const { mutate } = confirm;
  useEffect(() => mutate(token), [token, mutate]);

  const onward = session ? (
    <Link to={paths.dashboard} className="btn btn-primary">
      Личный кабинет
    </Link>
  ) : (
    <Link to={paths.login} className="btn btn-primary">
      Войти
    </Link>
  );

  if (confirm.isError) {
    return (
      <div className="result-card result-card-error">
        <EmptyState titleAs="h1" icon="alert" title="Не удалось подтвердить e-mail" actions={onward}>
          <span role="alert">{errorMessage(confirm.error, 'Не удалось подтвердить e-mail. Попробуйте позже.')}</span>
        </EmptyState>
      </div>
    );
  }
  if (!confirm.isSuccess) return <SpinnerBlock label="Подтверждаем e-mail…" />;
  return (
    <div className="result-card result-card-success">
      <EmptyState titleAs="h1" icon="check" title="E-mail подтверждён" actions={onward}>
        Спасибо! Адрес подтверждён.
        {user && session && <WelcomeArrival user={user} confirmedAt={confirm.submittedAt} />}
      </EmptyState>
    </div>
  );
}
