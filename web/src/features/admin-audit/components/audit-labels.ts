import { AUDIT_ACTION_LABELS, type AuditEntry } from '@gpt/contracts';

/** The action in Russian (an action this app does not know yet: as the server named it). */
export const actionLabel = (action: string) => AUDIT_ACTION_LABELS[action] ?? action;

export const OUTCOME_LABELS: Record<string, string> = {
  succeeded: 'Выполнено',
  started: 'Начато',
  refused: 'Отказ',
};

const TARGET_LABELS: Record<string, string> = {
  user: 'Пользователь',
  payment: 'Платёж',
  promo_code: 'Промокод',
  tariff: 'Тариф',
  model: 'Модель',
  setting: 'Настройка',
};

/** «Платёж 17», «Настройка credit_markup». */
export const targetLabel = ({ target }: AuditEntry) => `${TARGET_LABELS[target.type] ?? target.type} ${target.id}`;

/** «admin@example.com (ID 1)», or «Система». */
export const actorLabel = ({ actor }: AuditEntry) =>
  actor.role === 'system' ? 'Система' : `${actor.email ?? 'Администратор'} (ID ${actor.id ?? '—'})`;
