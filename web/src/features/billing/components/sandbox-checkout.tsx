import Alert from 'react-bootstrap/Alert';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Spinner from 'react-bootstrap/Spinner';

import { errorMessage } from '@/lib/api-client';
import { formatRoubles } from '@/lib/money';

import { useDecideSandboxPayment, useSandboxPayment } from '../api/sandbox-payment';

/**
 * The sandbox provider's confirmation page (no YooKassa keys configured): the payer pays or
 * cancels; billing then receives the same notification YooKassa would send.
 */
export function SandboxCheckout({ id, paymentKey }: { id: string; paymentKey?: string | undefined }) {
  const payment = useSandboxPayment(id);
  const decide = useDecideSandboxPayment();
  const busy = decide.isPending || decide.isSuccess;

  if (payment.isError) return <Alert variant="danger">{errorMessage(payment.error, 'Платёж не найден.')}</Alert>;
  if (!payment.data) return <Spinner animation="border" role="status" aria-label="Загрузка" />;
  const { status, amount, description, return_url: returnUrl } = payment.data;

  return (
    <Card>
      <Card.Body className="p-4">
        <div className="d-flex align-items-center justify-content-between mb-3">
          <h2 className="h5 mb-0">Оплата</h2>
          <Badge bg="warning" text="dark">
            Тестовый режим
          </Badge>
        </div>
        <p className="text-body-secondary small">
          Ключи ЮKassa не настроены, поэтому платёж проходит в песочнице: деньги не списываются, а сайт получает такое
          же уведомление об оплате, как от ЮKassa.
        </p>
        <dl className="info-list">
          <div className="info-item">
            <dt>Назначение</dt>
            <dd>{description}</dd>
          </div>
          <div className="info-item">
            <dt>К оплате</dt>
            <dd className="fs-4 fw-semibold">{formatRoubles(amount)}</dd>
          </div>
        </dl>
        {decide.isError && <Alert variant="danger">{errorMessage(decide.error, 'Не удалось провести платёж.')}</Alert>}
        {status === 'pending' ? (
          <div className="d-flex flex-wrap gap-2">
            <Button
              variant="success"
              size="lg"
              disabled={busy}
              onClick={() => decide.mutate({ id, decision: 'succeeded', key: paymentKey })}
            >
              {busy && decide.variables?.decision === 'succeeded' && (
                <Spinner animation="border" size="sm" className="me-2" aria-hidden />
              )}
              Оплатить {formatRoubles(amount)}
            </Button>
            <Button
              variant="outline-secondary"
              size="lg"
              disabled={busy}
              onClick={() => decide.mutate({ id, decision: 'canceled', key: paymentKey })}
            >
              Отменить
            </Button>
          </div>
        ) : (
          <Alert variant={status === 'succeeded' ? 'success' : 'secondary'} className="mb-0">
            {status === 'succeeded' ? 'Платёж уже оплачен.' : 'Платёж отменён.'}{' '}
            <a href={returnUrl}>Вернуться на сайт</a>
          </Alert>
        )}
      </Card.Body>
    </Card>
  );
}
