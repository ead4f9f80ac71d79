import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Col from 'react-bootstrap/Col';
import Row from 'react-bootstrap/Row';
import { Link } from 'react-router-dom';

import { Icon } from '@/components/ui/icons';
import { paths } from '@/config/paths';
import { formatRoubles } from '@/lib/money';
import { useSession } from '@/lib/session/session';

import { usePublicTariffPlans } from '../api/get-public-tariffs';
import { commonPlanFeatures, isFree, type TariffPlan } from '../tariff-plans';

const numberFormat = new Intl.NumberFormat('ru-RU');

function Feature({ ok, children }: { ok: boolean; children: string }) {
  return (
    <li className={`d-flex align-items-start gap-2 mb-2 ${ok ? '' : 'text-body-secondary'}`}>
      <Icon
        name={ok ? 'check' : 'cross'}
        size={18}
        className={`flex-shrink-0 mt-1 ${ok ? 'text-success' : 'text-body-secondary'}`}
        title={ok ? 'Есть' : 'Нет'}
      />
      <span>{children}</span>
    </li>
  );
}

/** Billing's tariffs have numeric ids; the spec's stand-in plans (shown while they load) cannot be bought. */
const purchasable = (plan: TariffPlan) => !isFree(plan) && /^\d+$/.test(plan.id);

function TariffCard({
  plan,
  showDescription,
  signedIn,
  onBuy,
}: {
  plan: TariffPlan;
  showDescription: boolean;
  signedIn: boolean;
  onBuy?: (plan: TariffPlan) => void;
}) {
  const free = isFree(plan);
  const target = signedIn ? paths.dashboard : paths.register;
  return (
    <Card className={`tariff-card h-100 ${plan.highlighted ? 'tariff-card-highlighted' : ''}`}>
      <Card.Body className="d-flex flex-column p-4">
        <div className="d-flex align-items-center justify-content-between mb-3">
          <h3 className="h4 mb-0">{plan.name}</h3>
          {plan.highlighted && <Badge bg="primary">Популярный</Badge>}
        </div>
        <div className="mb-3">
          <span className="tariff-price">{formatRoubles(plan.monthlyPrice)}</span>
          <span className="text-body-secondary"> / месяц</span>
        </div>
        {showDescription && <p className="text-body-secondary">{plan.description}</p>}
        <ul className="list-unstyled mb-4">
          <Feature ok>{`${numberFormat.format(plan.creditsPerRuble)} кредитов за 1 ₽`}</Feature>
          <Feature ok={plan.includedCredits > 0}>
            {plan.includedCredits > 0
              ? `${numberFormat.format(plan.includedCredits)} кредитов включено`
              : 'Без включённых кредитов'}
          </Feature>
          <Feature ok={plan.canGenerateImages}>Генерация изображений</Feature>
          {commonPlanFeatures.map((feature) => (
            <Feature key={feature} ok>
              {feature}
            </Feature>
          ))}
        </ul>
        {signedIn && onBuy && purchasable(plan) ? (
          <Button
            variant={plan.highlighted ? 'primary' : 'outline-primary'}
            className="w-100 mt-auto"
            onClick={() => onBuy(plan)}
            aria-label={`Купить тариф ${plan.name}`}
          >
            Купить
          </Button>
        ) : (
          <Link to={target} className={`btn ${plan.highlighted ? 'btn-primary' : 'btn-outline-primary'} w-100 mt-auto`}>
            {signedIn ? (free ? 'Выбрать' : 'Подключить в кабинете') : free ? 'Начать бесплатно' : 'Выбрать тариф'}
          </Link>
        )}
      </Card.Body>
    </Card>
  );
}

/**
 * The tariff cards (billing's active tariffs, docs/product.md, What it sells), with descriptions on the pricing page. With
 * `onBuy`, a signed-in user's paid plans say «Купить» and hand the plan over.
 */
export function TariffCards({
  showDescriptions = false,
  onBuy,
}: {
  showDescriptions?: boolean;
  onBuy?: (plan: TariffPlan) => void;
}) {
  const { token } = useSession();
  const plans = usePublicTariffPlans();
  return (
    <Row xs={1} md={3} className="g-4">
      {plans.map((plan) => (
        <Col key={plan.id}>
          <TariffCard plan={plan} showDescription={showDescriptions} signedIn={token !== null} onBuy={onBuy} />
        </Col>
      ))}
    </Row>
  );
}
