import {
  AUDIT_ACTION_LABELS,
  AUDITED_SERVICES,
  type AdminAuditExportQuery,
  type AdminAuditQuery,
  type AdminAuditResponse,
  type AuditedService,
  type AuditEntry,
  type AuditVerifyResponse,
  InternalAuditAnswer,
  InternalAuditChain,
  internalAuditPath,
  internalAuditVerifyPath,
  MAX_AUDIT_WINDOW,
} from '@gpt/contracts';
import { CallInTransactionError, moscowDateTime, quotedCell, serviceFetch, typedText } from '@gpt/kit';
import type { z } from 'zod';
import type { MetricsConfig } from '../config';
import { metricsErrors } from './errors';

type AuditConfig = Pick<MetricsConfig, 'AUTH_URL' | 'BILLING_URL' | 'CHAT_HISTORY_URL' | 'AUDIT_TIMEOUT_MS'>;

/**
 * «Журнал действий» (docs/architecture.md, The audit log): each audited service keeps its own log in its own
 * database, written in the transaction of each change; this reads them through their `/internal/audit` with
 * the admin's own token and merges them, newest first.
 */
export function auditLog(config: AuditConfig, authorization: string | undefined) {
  const urls: Record<AuditedService, string> = {
    auth: config.AUTH_URL,
    billing: config.BILLING_URL,
    'chat-history': config.CHAT_HISTORY_URL,
  };

  async function ask<S extends z.ZodType>(service: AuditedService, path: string, schema: S): Promise<z.output<S>> {
    let response: Response;
    try {
      response = await serviceFetch(new URL(path, urls[service]), {
        headers: authorization ? { Authorization: authorization } : {},
        signal: AbortSignal.timeout(config.AUDIT_TIMEOUT_MS),
      });
    } catch (err) {
      if (err instanceof CallInTransactionError) throw err;
      throw metricsErrors.auditUnavailable(service);
    }
    const parsed = schema.safeParse(await response.json().catch(() => undefined));
    if (!response.ok || !parsed.success) throw metricsErrors.auditUnavailable(service);
    return parsed.data;
  }

  /** Every service's newest `window` entries that match, merged newest first, and how many match in all. */
  async function merged(filters: AdminAuditExportQuery, window: number) {
    const query = new URLSearchParams({ limit: String(window) });
    for (const [name, value] of Object.entries(filters)) if (value !== undefined) query.set(name, String(value));
    const parts = await Promise.all(
      AUDITED_SERVICES.map(async (service) => {
        const part = await ask(service, `${internalAuditPath}?${query.toString()}`, InternalAuditAnswer);
        return { total: part.total, entries: part.entries.map((entry) => ({ service, ...entry })) };
      }),
    );
    const entries = parts
      .flatMap((part) => part.entries)
      .sort((a, b) => b.at.localeCompare(a.at) || a.service.localeCompare(b.service) || b.id - a.id);
    return { entries, total: parts.reduce((sum, part) => sum + part.total, 0) };
  }

  return {
    async page({ page, limit, ...filters }: AdminAuditQuery): Promise<AdminAuditResponse> {
      const window = page * limit;
      if (window > MAX_AUDIT_WINDOW) throw metricsErrors.auditPageTooFar(MAX_AUDIT_WINDOW);
      const { entries, total } = await merged(filters, window);
      return { entries: entries.slice(window - limit, window), total };
    },

    /** Each service's chain from its first entry; the first broken entry named, if any. */
    async verify(): Promise<AuditVerifyResponse> {
      const services = await Promise.all(
        AUDITED_SERVICES.map(async (service) => ({
          service,
          ...(await ask(service, internalAuditVerifyPath, InternalAuditChain)),
        })),
      );
      const first = services.find((state) => state.broken !== null);
      return {
        ok: first === undefined,
        services,
        broken: first?.broken ? { service: first.service, ...first.broken } : null,
      };
    },

    /** The matching entries (the newest `MAX_AUDIT_WINDOW`) for Russian Excel: `;`, Moscow time, UTF-8 with a BOM. */
    async csv(filters: AdminAuditExportQuery): Promise<string> {
      const { entries } = await merged(filters, MAX_AUDIT_WINDOW);
      const rows = [CSV_HEADERS, ...entries.map(csvCells)];
      return `\uFEFF${rows.map((cells) => cells.map((text) => quotedCell(text, ';')).join(';')).join('\r\n')}\r\n`;
    },
  };
}

const CSV_HEADERS = [
  'Время (МСК)',
  'Сервис',
  'Запись',
  'ID администратора',
  'E-mail',
  'Роль',
  'IP',
  'Браузер',
  'Действие',
  'Объект',
  'ID объекта',
  'ID пользователя',
  'До',
  'После',
  'Причина',
  'Ключ идемпотентности',
  'Итог',
];

const json = (value: unknown) => (value === null || value === undefined ? '' : JSON.stringify(value));

function csvCells(entry: AuditEntry): string[] {
  return [
    moscowDateTime(entry.at),
    entry.service,
    String(entry.id),
    entry.actor.id === null ? '' : String(entry.actor.id),
    typedText(entry.actor.email ?? ''),
    entry.actor.role,
    entry.ip ?? '',
    typedText(entry.user_agent ?? ''),
    AUDIT_ACTION_LABELS[entry.action] ?? entry.action,
    entry.target.type,
    typedText(entry.target.id),
    entry.target.user_id === null ? '' : String(entry.target.user_id),
    typedText(json(entry.before)),
    typedText(json(entry.after)),
    typedText(entry.reason ?? ''),
    typedText(entry.idempotency_key ?? ''),
    entry.outcome,
  ];
}
