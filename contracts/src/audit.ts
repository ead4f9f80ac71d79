import { z } from 'zod';
import { blankToUndefined, limitParam, PageParam, QueryId, queryText } from './common';

/** Why an admin changed a balance or refunded a payment: required by the admin app's forms, kept in the audit log. */
export const AuditReason = z
  .string({ error: 'Укажите причину' })
  .trim()
  .min(1, { error: 'Укажите причину' })
  .max(500, { error: 'Причина — не длиннее 500 символов' });

/** The services whose audit logs make up «Журнал действий». */
export const AUDITED_SERVICES = ['auth', 'billing', 'chat-history'] as const;
export const AuditedService = z.enum(AUDITED_SERVICES);
export type AuditedService = z.infer<typeof AuditedService>;

/** Russian names of the actions an entry can record, for the filter and the table (docs/money.md, The audit log). */
export const AUDIT_ACTION_LABELS: Record<string, string> = {
  'admin.sign_in': 'Вход администратора',
  'user.deposit': 'Пополнение баланса',
  'user.tariff': 'Смена тарифа',
  'user.update': 'Изменение пользователя',
  'user.delete': 'Удаление пользователя',
  'payment.refund': 'Возврат платежа',
  'payment.refunded': 'Возврат выполнен',
  'payment.refund_reverted': 'Возврат отклонён',
  'payment.succeeded': 'Платёж зачислен',
  'promo_code.create': 'Промокод создан',
  'promo_code.update': 'Промокод изменён',
  'promo_code.delete': 'Промокод удалён',
  'tariff.create': 'Тариф создан',
  'tariff.update': 'Тариф изменён',
  'tariff.delete': 'Тариф удалён',
  'model.create': 'Модель создана',
  'model.update': 'Модель изменена',
  'model.delete': 'Модель удалена',
  'setting.create': 'Настройка создана',
  'setting.update': 'Настройка изменена',
  'setting.delete': 'Настройка удалена',
};

const dateParam = (message: string) =>
  z.preprocess(blankToUndefined, z.iso.date({ error: message }).optional().meta({ description: 'YYYY-MM-DD (UTC)' }));

/** `GET /api/admin/audit`: filters by admin, user (the target), action and dates (from and to inclusive). */
export const AdminAuditQuery = z.object({
  page: PageParam,
  limit: limitParam(20),
  admin_id: QueryId,
  user_id: QueryId,
  action: queryText(64),
  from: dateParam('Дата «с»: ГГГГ-ММ-ДД'),
  to: dateParam('Дата «по»: ГГГГ-ММ-ДД'),
});
export type AdminAuditQuery = z.infer<typeof AdminAuditQuery>;

export const AuditEntry = z
  .object({
    service: AuditedService,
    id: z.int(),
    at: z.string(),
    actor: z.object({ id: z.int().nullable(), email: z.string().nullable(), role: z.string() }),
    ip: z.string().nullable(),
    user_agent: z.string().nullable(),
    action: z.string(),
    target: z.object({ type: z.string(), id: z.string(), user_id: z.int().nullable() }),
    before: z.unknown(),
    after: z.unknown(),
    reason: z.string().nullable(),
    idempotency_key: z.string().nullable(),
    outcome: z.string(),
  })
  .meta({ id: 'AuditEntry' });
export type AuditEntry = z.infer<typeof AuditEntry>;

export const AdminAuditResponse = z
  .object({ entries: z.array(AuditEntry), total: z.int().min(0) })
  .meta({ id: 'AdminAuditResponse' });
export type AdminAuditResponse = z.infer<typeof AdminAuditResponse>;

/** `GET /api/admin/audit/export`: the same filters; every matching entry (up to the window) as CSV. */
export const AdminAuditExportQuery = AdminAuditQuery.omit({ page: true, limit: true });
export type AdminAuditExportQuery = z.infer<typeof AdminAuditExportQuery>;

/** The first entry of a service's log whose hash does not follow from it and the previous one. */
export const BrokenAuditEntry = z.object({ id: z.int(), at: z.string(), action: z.string() });

/** `GET /api/admin/audit/verify`: each service's chain, and the first broken entry if any. */
export const AuditVerifyResponse = z
  .object({
    ok: z.boolean(),
    services: z.array(
      z.object({ service: AuditedService, entries: z.int().min(0), broken: BrokenAuditEntry.nullable() }),
    ),
    broken: BrokenAuditEntry.extend({ service: AuditedService }).nullable(),
  })
  .meta({ id: 'AuditVerifyResponse' });
export type AuditVerifyResponse = z.infer<typeof AuditVerifyResponse>;

/** The most entries a service answers for one merged page (page × limit of the list). */
export const MAX_AUDIT_WINDOW = 10_000;

/** A service's own part of the list: the same filters, and how many of its newest entries to answer. */
export const InternalAuditQuery = AdminAuditQuery.omit({ page: true, limit: true }).extend({
  limit: z.coerce.number().int().min(1).max(MAX_AUDIT_WINDOW),
});
export type InternalAuditQuery = z.infer<typeof InternalAuditQuery>;

/** A service's own part of the list (its `/internal/audit`): its newest matching entries and how many match. */
export const InternalAuditAnswer = z.object({
  entries: z.array(AuditEntry.omit({ service: true })),
  total: z.int().min(0),
});
export type InternalAuditAnswer = z.infer<typeof InternalAuditAnswer>;

/** A service's own chain (its `/internal/audit/verify`). */
export const InternalAuditChain = z.object({ entries: z.int().min(0), broken: BrokenAuditEntry.nullable() });
export type InternalAuditChain = z.infer<typeof InternalAuditChain>;

/** The internal paths of a service's audit log (never routed by the gateway). */
export const internalAuditPath = '/internal/audit';
export const internalAuditVerifyPath = '/internal/audit/verify';
