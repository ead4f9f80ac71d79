import { PAYMENT_STATUS_LABELS, type UserPayment } from '@gpt/contracts';
import { useEffect, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';

import { EmailText } from '@/components/ui/email-text';
import { Pager } from '@/components/ui/pager';
import { SpinnerBlock } from '@/components/ui/spinner-block';
import { StatusBadge } from '@/components/ui/status-badge';
import { formatDateTime } from '@/lib/dates';
import { formatRoubles, formatStars } from '@/lib/money';

import { PAYMENTS_PAGE_SIZE, usePayments } from '../api/get-payments';

/** What was bought: a tariff's own description, or a top-up (its sum is beside it). */
const whatOf = (payment: UserPayment) => (payment.kind === 'topup' ? 'Пополнение баланса' : payment.description);

/** docs/product.md, States: succeeded is completed, canceled and failed are errors, the others wait. */
const statusBadge = {
  labels: PAYMENT_STATUS_LABELS,
  variants: { succeeded: 'success', canceled: 'danger', failed: 'danger' },
  defaultVariant: 'warning',
} as const;

function PaymentRow({ payment }: { payment: UserPayment }) {
  return (
    <li className="list-group-item d-flex flex-wrap justify-content-between gap-2 py-3" data-testid="payment-row">
      <div className="payment-what">
        <div className="fw-medium">{whatOf(payment)}</div>
        <div className="small text-body-secondary">
          <time dateTime={payment.created_at}>{formatDateTime(payment.created_at)}</time>
        </div>
        <div className="small text-body-secondary">
          {payment.provider === 'telegram_stars' ? (
            'Оплачено звёздами в Telegram'
          ) : (
            <>Чек: {payment.email ? <EmailText email={payment.email} /> : 'email не указан'}</>
          )}
        </div>
      </div>
      <div className="ms-auto text-end">
        <div className="fw-semibold text-nowrap">{formatRoubles(payment.amount)}</div>
        {payment.star_amount !== null && (
          <div className="small text-body-secondary text-nowrap">{formatStars(payment.star_amount)}</div>
        )}
        <StatusBadge value={payment.status} {...statusBadge} />
      </div>
    </li>
  );
}

/**
 * The personal account's payment history: what, when, how much, its status and receipt e-mail, newest first;
 * like every list of the site, its pager shows whenever there are rows, also when they fit one page.
 */
export function PaymentHistory() {
  const [page, setPage] = useState(1);
  const { data, isPending, isError, error, isFetching, refetch } = usePayments(page);
  const pages = Math.ceil((data?.total ?? 0) / PAYMENTS_PAGE_SIZE);
  const listed = !isError && (data?.payments.length ?? 0) > 0;

  useEffect(() => {
    if (isError) console.error('Payments failed to load', error);
  }, [isError, error]);

  return (
    <section className="mt-4" aria-labelledby="payment-history-title">
      <h2 id="payment-history-title" className="h5 mb-3">
        История платежей
      </h2>
      <Card>
        <Card.Body className="p-0" aria-busy={isFetching} data-testid="payment-history">
          {isPending ? (
            <SpinnerBlock />
          ) : isError ? (
            <Alert variant="danger" className="m-3 d-flex flex-wrap align-items-center gap-3">
              <span className="me-auto">Не удалось загрузить платежи.</span>
              <Button variant="outline-danger" size="sm" onClick={() => void refetch()}>
                Повторить
              </Button>
            </Alert>
          ) : data.payments.length === 0 ? (
            <p className="text-body-secondary p-4 mb-0">Платежей пока нет.</p>
          ) : (
            <ul className="list-group list-group-flush rounded">
              {data.payments.map((payment) => (
                <PaymentRow key={payment.payment_id} payment={payment} />
              ))}
            </ul>
          )}
        </Card.Body>
      </Card>
      {listed && <Pager page={page} pages={pages} onPage={setPage} testId="payments-page" className="mt-3" />}
    </section>
  );
}
