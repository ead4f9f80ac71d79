import { typicalMessagesFor, type WelcomeOfferResponse } from '@gpt/contracts';
import { useState, type ReactNode } from 'react';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Col from 'react-bootstrap/Col';
import Row from 'react-bootstrap/Row';
import { Link } from 'react-router-dom';

import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { EmailText } from '@/components/ui/email-text';
import { Icon } from '@/components/ui/icons';
import { paths } from '@/config/paths';
import { errorMessage } from '@/lib/api-client';
import { formatDate, pluralRu } from '@/lib/dates';
import { formatRoubles } from '@/lib/money';
import { isAdmin, type SessionUser } from '@/lib/session/types';

import { useWelcomeOffer } from '../api/get-welcome-offer';
import { useUnlinkTelegram } from '../api/unlink-telegram';
import { useWelcomeGrantArrival } from '../use-welcome-grant-arrival';
import { ChangePasswordDialog } from './change-password-dialog';
import { EmailConfirmationNotice } from './email-confirmation-notice';
import { InviteFriends } from './invite-friends';
import { MySupportRequests } from './my-support-requests';
import { NewsSwitch } from './news-switch';
import { PasswordResetChannelSwitch } from './password-reset-channel';
import { PromoCodeForm } from './promo-code-form';
import { TelegramLinkDialog } from './telegram-link-dialog';
const numberFormat = new Intl.NumberFormat('ru-RU', { maximumFractionDigits: 0 });

function credits(value: number | string | null | undefined): string {
  const n = Number(value ?? 0);
  return numberFormat.format(Number.isFinite(n) ? Math.round(n) : 0);
}

/** What can be spent now; a session stored before holds existed has no held credits. */
function availableOf(user: SessionUser): number | string | null | undefined {
  return user.available_credits ?? Number(user.credits ?? 0) + Number(user.included_credits ?? 0);
}

function Item({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="info-item">
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

/** The welcome grant and roughly how many messages of the default model it buys (500 + 500 tokens each). */
function WelcomeCredits({ amount, offer }: { amount: number; offer: WelcomeOfferResponse | undefined }) {
  const messages = offer?.message_credits ? typicalMessagesFor(amount, offer.message_credits) : null;
  return (
    <Item label="Приветственные кредиты">
      {credits(amount)} {pluralRu(amount, ['кредит', 'кредита', 'кредитов'])} в подарок
      {offer?.model && messages !== null && (
        <span className="d-block small text-body-secondary" data-testid="welcome-messages">
          примерно {numberFormat.format(messages)} {pluralRu(messages, ['сообщение', 'сообщения', 'сообщений'])} с
          моделью{' '}
          <span className="text-nowrap" translate="no">
            {offer.model}
          </span>
        </span>
      )}
    </Item>
  );
}

function Section({
  title,
  icon,
  children,
}: {
  title: string;
  icon: Parameters<typeof Icon>[0]['name'];
  children: ReactNode;
}) {
  return (
    <Card className="h-100">
      <Card.Body className="p-4">
        <h2 className="h5 d-flex align-items-center gap-2 mb-3">
          <Icon name={icon} size={20} className="text-primary" />
          {title}
        </h2>
        {children}
      </Card.Body>
    </Card>
  );
}

/** Personal account sections (after the e-mail confirmation notice of an unconfirmed account): basic info, tariff and balance, Telegram link, inviting friends, promo code, actions. */
export function AccountOverview({ user }: { user: SessionUser }) {
  const [dialog, setDialog] = useState<'password' | 'telegram' | 'unlink' | null>(null);
  const close = () => setDialog(null);
  const unlink = useUnlinkTelegram();
  const price = Number(user.monthly_price ?? 0);
  const welcome = Number(user.welcome_credits ?? 0);
  const offer = useWelcomeOffer();
  useWelcomeGrantArrival({
    shown: welcome,
    confirmed: user.email_confirmed !== false,
    offered: offer?.welcome_credits,
    since: user.created_at ? Date.parse(user.created_at) : Number.NaN,
  });

  return (
    <>
      {user.email_confirmed === false && <EmailConfirmationNotice email={user.email} />}
      <Row xs={1} lg={2} className="g-4">
        <Col>
          <Section title="Основная информация" icon="user">
            <dl className="info-list mb-0">
              <Item label="Email">
                <EmailText email={user.email} />
              </Item>
              <Item label="Роль">{isAdmin(user) ? 'Администратор' : 'Пользователь'}</Item>
              <Item label="Дата регистрации">{formatDate(user.created_at) || '—'}</Item>
            </dl>
          </Section>
        </Col>
        <Col>
          <Section title="Тариф и баланс" icon="card">
            <dl className="info-list mb-0">
              <Item label="Тариф">{user.tariff_name || 'Базовый'}</Item>
              <Item label="Кредиты">{credits(user.credits)}</Item>
              <Item label="Включённые кредиты">{credits(user.included_credits)}</Item>
              <Item label="Доступно">{credits(availableOf(user))} кредитов</Item>
              {welcome > 0 && <WelcomeCredits amount={welcome} offer={offer} />}
              <Item label="Стоимость">
                {Number.isFinite(price) && price > 0
                  ? `${formatRoubles(String(user.monthly_price))} / месяц`
                  : 'Бесплатно'}
              </Item>
              {user.tariff_end_date && <Item label="Действует до">{formatDate(user.tariff_end_date)}</Item>}
            </dl>
          </Section>
        </Col>
        <Col>
          <Section title="Связь с Telegram" icon="send">
            {user.telegram_linked ? (
              <>
                <dl className="info-list mb-0">
                  <Item label="Статус">
                    <Badge bg="success">Связан</Badge>
                  </Item>
                  {user.telegram_username && <Item label="Пользователь">@{user.telegram_username}</Item>}
                  {user.telegram_id !== null && user.telegram_id !== undefined && (
                    <Item label="Telegram ID">{String(user.telegram_id)}</Item>
                  )}
                  <Item label="Email для чеков">{user.telegram_email || '—'}</Item>
                </dl>
                {user.telegram_id !== null && user.telegram_id !== undefined && (
                  <PasswordResetChannelSwitch telegramId={Number(user.telegram_id)} />
                )}
                <NewsSwitch />
                <Button variant="outline-danger" className="mt-3" onClick={() => setDialog('unlink')}>
                  Отвязать Telegram
                </Button>
              </>
            ) : (
              <>
                <p className="text-body-secondary">
                  Аккаунт ещё не связан с Telegram. После связки у сайта и бота будет общий баланс и подписки.
                </p>
                <Button variant="primary" onClick={() => setDialog('telegram')}>
                  Связать
                </Button>
              </>
            )}
          </Section>
        </Col>
        <Col>
          <Section title="Пригласить друга" icon="users">
            <InviteFriends />
          </Section>
        </Col>
        <Col>
          <Section title="Промокод" icon="gift">
            <p className="text-body-secondary">Есть промокод? Введите его, чтобы получить кредиты или тариф.</p>
            <PromoCodeForm />
          </Section>
        </Col>
        <Col>
          <Section title="Мои обращения" icon="chat">
            <MySupportRequests />
          </Section>
        </Col>
        <Col>
          <Section title="Действия" icon="settings">
            <div className="d-flex flex-wrap gap-2">
              <Button variant="outline-primary" onClick={() => setDialog('password')}>
                Сменить пароль
              </Button>
              <Link to={paths.pricing} className="btn btn-outline-secondary">
                Тарифы
              </Link>
              {isAdmin(user) && (
                <Link to={paths.admin.root} className="btn btn-dark">
                  <Icon name="shield" size={18} className="me-1" />
                  Админка
                </Link>
              )}
            </div>
          </Section>
        </Col>
      </Row>
      <ChangePasswordDialog show={dialog === 'password'} onClose={close} />
      <TelegramLinkDialog show={dialog === 'telegram'} onClose={close} />
      <ConfirmDialog
        show={dialog === 'unlink'}
        title="Отвязать Telegram"
        message={
          <>
            Бот перестанет тратить кредиты этого аккаунта. Баланс, платежи и история сообщений останутся здесь, а
            Telegram-аккаунт {user.telegram_username ? <strong>@{user.telegram_username}</strong> : null} продолжит с
            новым пустым аккаунтом в боте.
          </>
        }
        confirmLabel="Отвязать"
        pending={unlink.isPending}
        error={unlink.isError ? errorMessage(unlink.error, 'Не удалось отвязать Telegram.') : undefined}
        onConfirm={() => unlink.mutate(undefined, { onSuccess: close })}
        onCancel={() => {
          unlink.reset();
          close();
        }}
      />
    </>
  );
}
