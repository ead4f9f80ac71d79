import type { AuditEntry } from '@gpt/contracts';

import { DetailList, ViewDialog } from '@/components/ui/view-dialog';
import { formatDateTime } from '@/lib/dates';

import { actionLabel, actorLabel, OUTCOME_LABELS, targetLabel } from './audit-labels';

const json = (value: unknown) =>
  value === null || value === undefined ? null : (
    <pre className="bg-body-tertiary rounded p-2 small mb-0 text-break" style={{ whiteSpace: 'pre-wrap' }}>
      {JSON.stringify(value, null, 2)}
    </pre>
  );

/** One entry of «Журнал действий»: who, when, from where, what, the values before and after, why, the key. */
export function AuditEntryDialog({ entry, onHide }: { entry: AuditEntry | null; onHide: () => void }) {
  return (
    <ViewDialog show={entry !== null} title="Запись журнала" onHide={onHide} width="model">
      {entry && (
        <DetailList
          items={[
            { label: 'Время', value: formatDateTime(entry.at) },
            { label: 'Запись', value: `${entry.service} · №${entry.id}` },
            { label: 'Кто', value: actorLabel(entry) },
            { label: 'Откуда', value: entry.ip, hidden: !entry.ip },
            { label: 'Браузер', value: entry.user_agent, hidden: !entry.user_agent },
            { label: 'Действие', value: actionLabel(entry.action) },
            { label: 'Объект', value: targetLabel(entry) },
            { label: 'ID пользователя', value: entry.target.user_id, hidden: entry.target.user_id === null },
            { label: 'До', value: json(entry.before), hidden: entry.before === null },
            { label: 'После', value: json(entry.after), hidden: entry.after === null },
            { label: 'Причина', value: entry.reason, hidden: !entry.reason },
            {
              label: 'Ключ идемпотентности',
              value: entry.idempotency_key && <code>{entry.idempotency_key}</code>,
              hidden: !entry.idempotency_key,
            },
            { label: 'Итог', value: OUTCOME_LABELS[entry.outcome] ?? entry.outcome },
          ]}
        />
      )}
    </ViewDialog>
  );
}
