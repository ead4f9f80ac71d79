import { useEffect, useRef, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Col from 'react-bootstrap/Col';
import Form from 'react-bootstrap/Form';
import Row from 'react-bootstrap/Row';

import { PAYMENT_STATUSES, paymentStatusBadge } from '../status';

export type PaymentFilters = Record<'userId' | 'username' | 'status', string>;

/** Typing settles for this long before the list reloads. */
const TYPING_PAUSE_MS = 400;

/**
 * Filters of the payments screen (spec §2): user ID (pre-filled from `?userId=`), username and the
 * status select. Any change reloads the list from page 1; typed text applies after a short pause.
 */
export function PaymentsFilters({
  applied,
  onChange,
  onReset,
}: {
  applied: PaymentFilters;
  onChange: (patch: Partial<PaymentFilters>) => void;
  onReset: () => void;
}) {
  const [draft, setDraft] = useState({ userId: applied.userId, username: applied.username });
  const [seen, setSeen] = useState(applied);
  const [sent, setSent] = useState<typeof draft | null>(null);
  if (seen.userId !== applied.userId || seen.username !== applied.username) {
    setSeen(applied);
    // The URL changed from elsewhere (reset, back / forward): the fields follow it.
    const ours = sent !== null && sent.userId === applied.userId && sent.username === applied.username;
    if (!ours) setDraft({ userId: applied.userId, username: applied.username });
  }

  // The latest callback, without restarting the typing pause whenever the parent renders.
  const onChangeRef = useRef(onChange);
  useEffect(() => {
    onChangeRef.current = onChange;
  });
  useEffect(() => {
    if (draft.userId === applied.userId && draft.username === applied.username) return undefined;
    const timer = setTimeout(() => {
      setSent(draft);
      onChangeRef.current(draft);
    }, TYPING_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [draft, applied.userId, applied.username]);

  return (
    <Card className="mb-3">
      <Card.Body>
        <Row className="g-3 align-items-end">
          <Col xs={12} md={3}>
            <Form.Group controlId="payments-filter-user-id">
              <Form.Label className="small text-body-secondary">ID пользователя</Form.Label>
              <Form.Control
                inputMode="numeric"
                value={draft.userId}
                placeholder="Например, 42"
                onChange={(event) => setDraft((d) => ({ ...d, userId: event.target.value.replace(/\D/g, '') }))}
              />
            </Form.Group>
          </Col>
          <Col xs={12} md={4}>
            <Form.Group controlId="payments-filter-username">
              <Form.Label className="small text-body-secondary">Username</Form.Label>
              <Form.Control
                value={draft.username}
                placeholder="Поиск по username"
                onChange={(event) => setDraft((d) => ({ ...d, username: event.target.value }))}
              />
            </Form.Group>
          </Col>
          <Col xs={12} md={3}>
            <Form.Group controlId="payments-filter-status">
              <Form.Label className="small text-body-secondary">Статус</Form.Label>
              <Form.Select value={applied.status} onChange={(event) => onChange({ status: event.target.value })}>
                <option value="">Все</option>
                {PAYMENT_STATUSES.map((status) => (
                  <option key={status} value={status}>
                    {paymentStatusBadge.labels[status]}
                  </option>
                ))}
              </Form.Select>
            </Form.Group>
          </Col>
          <Col xs={12} md={2}>
            <Button variant="outline-secondary" className="w-100" onClick={onReset}>
              Сбросить
            </Button>
          </Col>
        </Row>
      </Card.Body>
    </Card>
  );
}
