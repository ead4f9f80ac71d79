import type { BroadcastPreviewResponse } from '@gpt/contracts';
import { useEffect, useId, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Col from 'react-bootstrap/Col';
import Form from 'react-bootstrap/Form';
import Row from 'react-bootstrap/Row';

import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { useToast } from '@/components/ui/toasts';
import { useActionKey } from '@/lib/action-key';
import { errorMessage } from '@/lib/api-client';

import {
  useAudienceTariffs,
  useCountRecipients,
  useCreateBroadcast,
  usePreviewBroadcast,
  useSendToMyself,
  type AudienceBody,
  type ContentBody,
} from '../api/compose-broadcast';
import { TelegramPreview } from './telegram-preview';

type ButtonKind = 'none' | 'url' | 'top_up' | 'open_chat';

interface Draft {
  text: string;
  photoUrl: string;
  buttonKind: ButtonKind;
  buttonText: string;
  buttonUrl: string;
  tariffIds: number[];
  paid: '' | 'ever' | 'never';
  activeWithin: string;
  inactiveFor: string;
  balanceBelow: string;
  linked: '' | 'yes' | 'no';
  utmSource: string;
  endsWithin: string;
  when: 'now' | 'later';
  /** `YYYY-MM-DDTHH:mm` in Moscow time. */
  sendAt: string;
}

const EMPTY: Draft = {
  text: '',
  photoUrl: '',
  buttonKind: 'none',
  buttonText: '',
  buttonUrl: '',
  tariffIds: [],
  paid: '',
  activeWithin: '',
  inactiveFor: '',
  balanceBelow: '',
  linked: '',
  utmSource: '',
  endsWithin: '',
  when: 'now',
  sendAt: '',
};

/** The audience's number fields, in the order shown. */
const NUMBER_FIELDS = [
  { name: 'activeWithin', label: 'Писали боту за последние, дней' },
  { name: 'inactiveFor', label: 'Не писали боту дольше, дней' },
  { name: 'balanceBelow', label: 'Доступно меньше, кредитов' },
  { name: 'endsWithin', label: 'Тариф истекает за, дней' },
] as const satisfies readonly { name: keyof Draft; label: string }[];

/** A typed whole number, or null when the field is empty (the server refuses what is not one, in Russian). */
const wholeOrNull = (value: string) => (value.trim() === '' ? null : Number(value));

function contentOf(draft: Draft): ContentBody {
  return {
    text: draft.text,
    photo_url: draft.photoUrl.trim() || null,
    button:
      draft.buttonKind === 'none'
        ? null
        : draft.buttonKind === 'url'
          ? { kind: 'url', text: draft.buttonText, url: draft.buttonUrl }
          : { kind: draft.buttonKind },
  };
}

function audienceOf(draft: Draft): AudienceBody {
  return {
    tariff_ids: draft.tariffIds.length ? draft.tariffIds : null,
    paid: draft.paid || null,
    active_within_days: wholeOrNull(draft.activeWithin),
    inactive_for_days: wholeOrNull(draft.inactiveFor),
    balance_below: wholeOrNull(draft.balanceBelow),
    linked: draft.linked === '' ? null : draft.linked === 'yes',
    utm_source: draft.utmSource.trim() || null,
    tariff_ends_within_days: wholeOrNull(draft.endsWithin),
  };
}

/** Moscow is UTC+3 all year: the admin's `YYYY-MM-DDTHH:mm` there as an instant. */
const moscowInstant = (local: string) => (local ? `${local}:00+03:00` : null);

/** Waits `ms` after the last change of `value` before calling `run` with it. */
function useSettled<T>(value: T, ms: number, run: (value: T) => void) {
  const key = JSON.stringify(value);
  useEffect(() => {
    const timer = setTimeout(() => run(JSON.parse(key) as T), ms);
    return () => clearTimeout(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `key` is the value; `run` is a mutation's stable mutate
  }, [key, ms]);
}

/** «Новая рассылка»: the message with its preview and «Отправить мне», the audience with its count, when to send. */
export function BroadcastComposer() {
  const id = useId();
  const toast = useToast();
  const [draft, setDraft] = useState<Draft>(EMPTY);
  const [confirming, setConfirming] = useState(false);
  const set = <K extends keyof Draft>(field: K, value: Draft[K]) =>
    setDraft((current) => ({ ...current, [field]: value }));
  const tariffs = useAudienceTariffs();
  const preview = usePreviewBroadcast();
  const count = useCountRecipients();
  const myself = useSendToMyself();
  const create = useCreateBroadcast(useActionKey(confirming));
  const content = contentOf(draft);
  const audience = audienceOf(draft);

  useSettled(content, 400, (value) => value.text.trim() && preview.mutate(value));
  useSettled(audience, 400, (value) => count.mutate(value));
  const shown: BroadcastPreviewResponse | undefined = draft.text.trim() ? preview.data : undefined;
  const recipients = count.isSuccess ? count.data.recipients : null;

  const start = () =>
    create.mutate(
      { content, audience, send_at: draft.when === 'later' ? moscowInstant(draft.sendAt) : null },
      {
        onSuccess: ({ data }) => {
          setConfirming(false);
          setDraft(EMPTY);
          myself.reset();
          toast.success(
            'Рассылка создана',
            data.status === 'scheduled' && draft.when === 'later'
              ? 'Она начнётся в назначенное время.'
              : 'Она уже отправляется.',
          );
        },
      },
    );

  const field = (name: string) => `${id}-${name}`;
  return (
    <Card className="mb-4">
      <Card.Body>
        <Card.Title as="h2" className="h5 mb-3">
          Новая рассылка
        </Card.Title>
        <Row className="g-4">
          <Col xs={12} lg={7}>
            <Form.Group className="mb-3" controlId={field('text')}>
              <Form.Label>Текст</Form.Label>
              <Form.Control
                as="textarea"
                rows={6}
                value={draft.text}
                onChange={(event) => set('text', event.target.value)}
                placeholder="**Новая модель** уже в боте! Подробности — [на сайте](https://example.com)"
              />
              <Form.Text>
                **жирный**, *курсив*, [ссылка](https://…). В конце бот добавит, как отключить рассылки.
              </Form.Text>
            </Form.Group>
            <Form.Group className="mb-3" controlId={field('photo')}>
              <Form.Label>Фото (ссылка, необязательно)</Form.Label>
              <Form.Control
                type="url"
                value={draft.photoUrl}
                onChange={(event) => set('photoUrl', event.target.value)}
                placeholder="https://example.com/promo.jpg"
              />
              <Form.Text>С фото текст становится подписью: до 1 024 символов вместе со строкой об отписке.</Form.Text>
            </Form.Group>
            <Row className="g-2 mb-3">
              <Col xs={12} md={4}>
                <Form.Group controlId={field('button-kind')}>
                  <Form.Label>Кнопка</Form.Label>
                  <Form.Select
                    value={draft.buttonKind}
                    onChange={(event) => set('buttonKind', event.target.value as ButtonKind)}
                  >
                    <option value="none">Без кнопки</option>
                    <option value="url">Ссылка</option>
                    <option value="top_up">«Пополнить»</option>
                    <option value="open_chat">«Открыть чат»</option>
                  </Form.Select>
                </Form.Group>
              </Col>
              {draft.buttonKind === 'url' && (
                <>
                  <Col xs={12} md={3}>
                    <Form.Group controlId={field('button-text')}>
                      <Form.Label>Надпись</Form.Label>
                      <Form.Control
                        value={draft.buttonText}
                        onChange={(event) => set('buttonText', event.target.value)}
                      />
                    </Form.Group>
                  </Col>
                  <Col xs={12} md={5}>
                    <Form.Group controlId={field('button-url')}>
                      <Form.Label>Ссылка кнопки</Form.Label>
                      <Form.Control
                        type="url"
                        value={draft.buttonUrl}
                        onChange={(event) => set('buttonUrl', event.target.value)}
                        placeholder="https://…"
                      />
                    </Form.Group>
                  </Col>
                </>
              )}
            </Row>

            <h3 className="h6 mt-4">Аудитория</h3>
            <p className="small text-body-secondary mb-2">
              Пусто — все пользователи бота. Заблокировавшие бота и отключившие рассылки не получат её никогда.
            </p>
            <Row className="g-2">
              <Col xs={12}>
                <Form.Label className="d-block mb-1">Тарифы</Form.Label>
                {(tariffs.data ?? []).map((tariff) => (
                  <Form.Check
                    inline
                    key={tariff.id}
                    id={field(`tariff-${tariff.id}`)}
                    label={tariff.name}
                    checked={draft.tariffIds.includes(tariff.id)}
                    onChange={(event) =>
                      set(
                        'tariffIds',
                        event.target.checked
                          ? [...draft.tariffIds, tariff.id]
                          : draft.tariffIds.filter((one) => one !== tariff.id),
                      )
                    }
                  />
                ))}
              </Col>
              <Col xs={12} md={4}>
                <Form.Group controlId={field('paid')}>
                  <Form.Label>Оплаты</Form.Label>
                  <Form.Select
                    value={draft.paid}
                    onChange={(event) => set('paid', event.target.value as Draft['paid'])}
                  >
                    <option value="">Неважно</option>
                    <option value="ever">Платили хоть раз</option>
                    <option value="never">Ни разу не платили</option>
                  </Form.Select>
                </Form.Group>
              </Col>
              <Col xs={12} md={4}>
                <Form.Group controlId={field('linked')}>
                  <Form.Label>Связь с сайтом</Form.Label>
                  <Form.Select
                    value={draft.linked}
                    onChange={(event) => set('linked', event.target.value as Draft['linked'])}
                  >
                    <option value="">Неважно</option>
                    <option value="yes">Связаны с аккаунтом сайта</option>
                    <option value="no">Только Telegram</option>
                  </Form.Select>
                </Form.Group>
              </Col>
              <Col xs={12} md={4}>
                <Form.Group controlId={field('utm')}>
                  <Form.Label>UTM-метка</Form.Label>
                  <Form.Control value={draft.utmSource} onChange={(event) => set('utmSource', event.target.value)} />
                </Form.Group>
              </Col>
              {NUMBER_FIELDS.map(({ name, label }) => (
                <NumberField
                  key={name}
                  id={field(name)}
                  label={label}
                  value={draft[name]}
                  onChange={(value) => set(name, value)}
                />
              ))}
            </Row>
            <p className="mt-3 mb-0 fw-medium" aria-live="polite" data-testid="broadcast-recipients">
              {count.isError
                ? errorMessage(count.error, 'Не удалось посчитать получателей.')
                : recipients === null
                  ? 'Считаем получателей…'
                  : `Получателей сейчас: ${recipients.toLocaleString('ru-RU')}`}
            </p>

            <h3 className="h6 mt-4">Когда</h3>
            <div className="d-flex flex-wrap align-items-center gap-3">
              <Form.Check
                type="radio"
                id={field('now')}
                name={field('when')}
                label="Сейчас"
                checked={draft.when === 'now'}
                onChange={() => set('when', 'now')}
              />
              <Form.Check
                type="radio"
                id={field('later')}
                name={field('when')}
                label="В назначенное время (МСК)"
                checked={draft.when === 'later'}
                onChange={() => set('when', 'later')}
              />
              {draft.when === 'later' && (
                <Form.Control
                  type="datetime-local"
                  aria-label="Дата и время отправки по Москве"
                  className="w-auto"
                  value={draft.sendAt}
                  onChange={(event) => set('sendAt', event.target.value)}
                />
              )}
            </div>
          </Col>
          <Col xs={12} lg={5}>
            <h3 className="h6">Так увидит пользователь</h3>
            {shown ? (
              <TelegramPreview preview={shown} />
            ) : (
              <p className="text-body-secondary small">
                {preview.isError && draft.text.trim()
                  ? errorMessage(preview.error, 'Не удалось показать сообщение.')
                  : 'Напишите текст — здесь появится сообщение.'}
              </p>
            )}
            {myself.isSuccess && (
              <Alert variant="success" className="mt-3 py-2">
                Отправлено вам в Telegram.
              </Alert>
            )}
            {myself.isError && (
              <Alert variant="danger" className="mt-3 py-2">
                {errorMessage(myself.error, 'Не удалось отправить сообщение.')}
              </Alert>
            )}
            <div className="d-flex flex-wrap gap-2 mt-3">
              <Button
                variant="outline-primary"
                disabled={!draft.text.trim() || myself.isPending}
                onClick={() => myself.mutate(content)}
              >
                Отправить мне
              </Button>
              <Button
                variant="primary"
                disabled={!draft.text.trim() || recipients === null || (draft.when === 'later' && !draft.sendAt)}
                onClick={() => setConfirming(true)}
              >
                {draft.when === 'later' ? 'Запланировать' : 'Запустить рассылку'}
              </Button>
            </div>
          </Col>
        </Row>
      </Card.Body>
      <ConfirmDialog
        show={confirming}
        title={draft.when === 'later' ? 'Запланировать рассылку?' : 'Запустить рассылку?'}
        message={`Получателей сейчас: ${(recipients ?? 0).toLocaleString('ru-RU')}. Каждый получит сообщение один раз.`}
        confirmLabel={draft.when === 'later' ? 'Запланировать' : 'Запустить'}
        onConfirm={start}
        onCancel={() => setConfirming(false)}
        pending={create.isPending}
        error={create.isError ? errorMessage(create.error, 'Не удалось создать рассылку.') : undefined}
      />
    </Card>
  );
}

function NumberField({
  id,
  label,
  value,
  onChange,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
}) {
  return (
    <Col xs={12} sm={6}>
      <Form.Group controlId={id}>
        <Form.Label className="small">{label}</Form.Label>
        <Form.Control
          type="number"
          min={1}
          inputMode="numeric"
          value={value}
          onChange={(event) => onChange(event.target.value)}
        />
      </Form.Group>
    </Col>
  );
}
