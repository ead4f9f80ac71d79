import type { BalanceSnapshot, PaymentStatus, UserPayment } from '@gpt/contracts';
import { useEffect } from 'react';
import Alert from 'react-bootstrap/Alert';
import Card from 'react-bootstrap/Card';
import Spinner from 'react-bootstrap/Spinner';
import { Link } from 'react-router-dom';

import { paths } from '@/config/paths';
import { errorMessage } from '@/lib/api-client';
import { formatDate } from '@/lib/dates';
import { formatCredits, formatRoubles } from '@/lib/money';
import { refreshSession, useSession } from '@/lib/session/session';

import { useBalance } from '../api/get-balance';
import { FINAL_STATUSES, isRefusal, usePayment } from '../api/get-payment';

const OUTCOMES: Record<PaymentStatus, { variant: string; title: string; text: string }> = {
  succeeded: { variant: 'success', title: 'Оплата прошла успешно', text: 'Спасибо! Платёж зачислен.' },
  canceled: {
    variant: 'warning',
    title: 'Платёж отменён',
    text: 'Деньги не списаны. Можно попробовать ещё раз из личного кабинета.',
  },
  failed: { variant: 'danger', title: 'Ошибка платежа', text: 'Платёж не прошёл. Попробуйте ещё раз позже.' },
  pending: { variant: 'info', title: 'Ожидаем подтверждение оплаты', text: 'Это займёт несколько секунд.' },
  pending_email: { variant: 'info', title: 'Ожидает e-mail', text: 'Для чека нужен e-mail: укажите его в боте.' },
  refunded: { variant: 'secondary', title: 'Платёж возвращён', text: 'Деньги вернулись на карту.' },
};

const BACK_TO_BOT = 'Если вы оплачивали из Telegram-бота, вернитесь в бот — баланс обновится автоматически.';

/** How often the profile is re-read until it shows what billing already holds. */
const PROFILE_SYNC_MS = 1000;
const PROFILE_SYNC_TRIES = 15;

/**
 * The page the payer returns to from the provider: the payment's outcome (asked again until the
 * provider's notification has been handled) and, once paid, the new balance.
 */
export function PaymentResult({ paymentId }: { paymentId: string | null }) {
  const { token } = useSession();
  const payment = usePayment(token ? paymentId : null);
  const status = payment.data?.status;
  const settled = status !== undefined && FINAL_STATUSES.includes(status);
  const balance = useBalance(status === 'succeeded');

  if (!paymentId) return <Alert variant="warning">Платёж не указан.</Alert>;
  if (!token) {
    return (
      <Alert variant="info">
        Платёж принят в обработку. {BACK_TO_BOT} <Link to={paths.login}>Войдите</Link>, чтобы увидеть результат на
        сайте.
      </Alert>
    );
  }
  // Opened in a browser signed in as someone else (a bot payment on a shared computer): say what is known.
  if (isRefusal(payment.error)) {
    return (
      <Alert variant="info" data-testid="payment-of-another-account">
        Платёж принят в обработку, но он оформлен не из этого аккаунта, поэтому его результат здесь не показан.{' '}
        {BACK_TO_BOT}
      </Alert>
    );
  }
  if (payment.isError) return <Alert variant="danger">{errorMessage(payment.error, 'Ошибка загрузки платежа.')}</Alert>;
  if (!payment.data) return <Spinner animation="border" role="status" aria-label="Загрузка" />;

  const outcome = OUTCOMES[payment.data.status];
  return (
    <Card>
      <Card.Body className="p-4">
        <Alert variant={outcome.variant} className="d-flex align-items-center gap-2">
          {!settled && <Spinner animation="border" size="sm" aria-hidden />}
          <div>
            <div className="fw-semibold">{outcome.title}</div>
            <div className="small">{outcome.text}</div>
          </div>
        </Alert>
        <PaymentSummary payment={payment.data} />
        {balance.data && <NewBalance balance={balance.data} />}
        <Link to={paths.dashboard} className="btn btn-primary mt-3">
          В личный кабинет
        </Link>
      </Card.Body>
    </Card>
  );
}

function PaymentSummary({ payment }: { payment: UserPayment }) {
  return (
    <dl className="info-list mb-0">
      <div className="info-item">
        <dt>Платёж</dt>
        <dd>{payment.description}</dd>
      </div>
      <div className="info-item">
        <dt>Сумма</dt>
        <dd>{formatRoubles(payment.amount)}</dd>
      </div>
      {payment.kind === 'topup' && (
        <div className="info-item">
          <dt>Кредиты</dt>
          <dd>{formatCredits(payment.credits_amount)}</dd>
        </div>
      )}
    </dl>
  );
}

/** The balance billing now holds; the session's profile is re-read until it shows the same. */
function NewBalance({ balance }: { balance: BalanceSnapshot }) {
  const { user } = useSession();
  const synced =
    user !== null &&
    Number(user.credits) === balance.credits &&
    Number(user.included_credits) === balance.included_credits;

  useEffect(() => {
    if (synced) return undefined;
    let tries = 0;
    const timer = setInterval(() => {
      tries += 1;
      if (tries > PROFILE_SYNC_TRIES) clearInterval(timer);
      else void refreshSession();
    }, PROFILE_SYNC_MS);
    void refreshSession();
    return () => clearInterval(timer);
  }, [synced]);

  return (
    <div className="mt-3 p-3 rounded bg-body-tertiary" data-testid="new-balance">
      <div className="small text-body-secondary">Баланс</div>
      <div className="fs-5 fw-semibold">{formatCredits(balance.credits)} кредитов</div>
      {balance.included_credits > 0 && (
        <div className="small">+ {formatCredits(balance.included_credits)} включённых кредитов</div>
      )}
      <div className="small text-body-secondary">
        Тариф {balance.tariff.name}
        {balance.tariff.end_date && ` до ${formatDate(balance.tariff.end_date)}`}
      </div>
    </div>
  );
}
