import { creditsForTopUp, TOP_UP_PACKAGES, type PublicTariff } from '@gpt/contracts';
import { useState, type FormEvent } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Col from 'react-bootstrap/Col';
import Form from 'react-bootstrap/Form';
import InputGroup from 'react-bootstrap/InputGroup';
import Row from 'react-bootstrap/Row';
import Spinner from 'react-bootstrap/Spinner';

import { Icon } from '@/components/ui/icons';
import { errorMessage } from '@/lib/api-client';
import { formatDate } from '@/lib/dates';
import { formatCredits, formatRoubles } from '@/lib/money';

import { useCreatePayment } from '../api/create-payment';
import { useBalance } from '../api/get-balance';
import { useTariffs } from '../api/get-tariffs';
import { parseTopUp } from '../top-up';
import { TariffPurchaseDialog, type TariffPurchase } from './tariff-purchase-dialog';

const PAYMENT_FAILED = 'Не удалось создать платёж, попробуйте позже';

/**
 * The personal account's payment actions: a top-up of any amount and buying (or extending) a
 * tariff, confirmed in a dialog first. Both go to the payment provider's page and come back to the
 * payment result page.
 */
export function BillingActions() {
  const balance = useBalance();
  const tariffs = useTariffs();
  const pay = useCreatePayment();
  const [amountText, setAmountText] = useState('');
  const [touched, setTouched] = useState(false);
  const [purchase, setPurchase] = useState<TariffPurchase | null>(null);

  const parsed = parseTopUp(amountText);
  const current = balance.data?.tariff;
  const rate = tariffs.data?.find((tariff) => tariff.id === current?.id)?.credits_per_ruble;
  const paidTariffs = (tariffs.data ?? []).filter((tariff) => Number(tariff.monthly_price) > 0);
  const busy = pay.isPending || pay.isSuccess;

  const running = (tariff: PublicTariff) =>
    current?.id === tariff.id && current.end_date !== null && new Date(current.end_date) > new Date();

  function topUp(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setTouched(true);
    if (!('amount' in parsed)) return;
    pay.mutate({ amount: parsed.amount });
  }

  function buy(tariff: PublicTariff) {
    setPurchase({
      id: tariff.id,
      name: tariff.name,
      monthlyPrice: tariff.monthly_price,
      includedCredits: tariff.included_credits,
      creditsPerRuble: tariff.credits_per_ruble,
      extending: running(tariff),
    });
  }

  return (
    <section className="mt-4" aria-labelledby="billing-actions-title">
      <h2 id="billing-actions-title" className="h5 mb-3">
        Оплата
      </h2>
      {pay.isError && (
        <Alert variant="danger" dismissible onClose={() => pay.reset()}>
          {errorMessage(pay.error, PAYMENT_FAILED)}
        </Alert>
      )}
      <Row xs={1} lg={2} className="g-4">
        <Col>
          <Card className="h-100">
            <Card.Body className="p-4">
              <h3 className="h6 d-flex align-items-center gap-2 mb-3">
                <Icon name="money" size={20} className="text-primary" />
                Пополнить баланс
              </h3>
              <Form noValidate onSubmit={topUp}>
                <Form.Group controlId="top-up-amount" className="mb-2">
                  <Form.Label>Сумма пополнения</Form.Label>
                  <InputGroup hasValidation>
                    <Form.Control
                      type="text"
                      inputMode="decimal"
                      placeholder="Например, 300"
                      value={amountText}
                      isInvalid={touched && 'error' in parsed}
                      onChange={(event) => setAmountText(event.target.value)}
                      onBlur={() => setTouched(amountText !== '')}
                    />
                    <InputGroup.Text>₽</InputGroup.Text>
                    <Form.Control.Feedback type="invalid">{'error' in parsed && parsed.error}</Form.Control.Feedback>
                  </InputGroup>
                </Form.Group>
                <div className="d-flex flex-wrap gap-2 mb-3">
                  {/* The bot's packages (billing's list), so the site and the bot offer the same sums. */}
                  {TOP_UP_PACKAGES.map((amount) => (
                    <Button
                      key={amount}
                      size="sm"
                      variant="outline-secondary"
                      onClick={() => setAmountText(amount.replace(/\.00$/, ''))}
                    >
                      {formatRoubles(amount)}
                    </Button>
                  ))}
                </div>
                <p className="small text-body-secondary mb-3" aria-live="polite">
                  {'amount' in parsed && rate !== undefined
                    ? `Будет зачислено ${formatCredits(creditsForTopUp(parsed.amount, rate))} кредитов (${formatCredits(rate)} за 1 ₽ по вашему тарифу)`
                    : 'Кредиты зачисляются по курсу вашего тарифа и не сгорают.'}
                </p>
                <Button type="submit" variant="primary" disabled={busy}>
                  {busy && <Spinner animation="border" size="sm" className="me-2" aria-hidden />}
                  Пополнить
                </Button>
              </Form>
            </Card.Body>
          </Card>
        </Col>
        <Col>
          <Card className="h-100">
            <Card.Body className="p-4">
              <h3 className="h6 d-flex align-items-center gap-2 mb-3">
                <Icon name="tag" size={20} className="text-primary" />
                Купить тариф
              </h3>
              {paidTariffs.length === 0 && <p className="text-body-secondary mb-0">Платных тарифов пока нет.</p>}
              <ul className="list-unstyled mb-0 d-grid gap-3">
                {paidTariffs.map((tariff) => (
                  <li key={tariff.id} className="d-flex align-items-center justify-content-between gap-3">
                    <div>
                      <div className="fw-medium">
                        {tariff.name} · {formatRoubles(tariff.monthly_price)} / месяц
                      </div>
                      <div className="small text-body-secondary">
                        {formatCredits(tariff.included_credits)} кредитов включено,{' '}
                        {formatCredits(tariff.credits_per_ruble)} за 1 ₽
                        {running(tariff) && current?.end_date && ` · действует до ${formatDate(current.end_date)}`}
                      </div>
                    </div>
                    <Button
                      variant={running(tariff) ? 'outline-primary' : 'primary'}
                      onClick={() => buy(tariff)}
                      aria-label={`${running(tariff) ? 'Продлить' : 'Купить'} тариф ${tariff.name}`}
                    >
                      {running(tariff) ? 'Продлить' : 'Купить'}
                    </Button>
                  </li>
                ))}
              </ul>
            </Card.Body>
          </Card>
        </Col>
      </Row>
      <TariffPurchaseDialog tariff={purchase} onClose={() => setPurchase(null)} />
    </section>
  );
}
