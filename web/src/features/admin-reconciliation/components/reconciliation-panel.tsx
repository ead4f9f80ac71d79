import { RECONCILIATION_KIND_LABELS, type ReconciliationReport } from '@gpt/contracts';
import Card from 'react-bootstrap/Card';
import Table from 'react-bootstrap/Table';

import { BusyButton } from '@/components/ui/busy-button';
import { errorMessage } from '@/lib/api-client';
import { formatDateTime, pluralRu } from '@/lib/dates';
import { formatRoubles, formatStars } from '@/lib/money';

import { useReconciliation, useRunReconciliation } from '../api/reconciliation';

type Difference = ReconciliationReport['differences'][number];

/** Roubles for YooKassa, stars for Telegram; a dash where a side has nothing. */
const amountOf = (d: Difference, value: string | null) =>
  value === null ? '—' : d.source === 'yookassa' ? formatRoubles(value) : formatStars(Number(value));

const SOURCE_LABELS: Record<ReconciliationReport['sources'][number]['source'], string> = {
  yookassa: 'ЮKassa',
  telegram_stars: 'Telegram Stars',
};

/**
 * The dashboard's reconciliation (docs/money.md, Reconciliation): the latest comparison of billing's payments and
 * refunds with YooKassa's and Telegram's records, each difference, and «Сверить сейчас». Nothing is corrected here.
 */
export function ReconciliationPanel() {
  const latest = useReconciliation();
  const run = useRunReconciliation();
  const report = latest.data?.report ?? null;
  const failed = report?.sources.filter((source) => source.error) ?? [];

  let summary: string;
  if (latest.isError) summary = errorMessage(latest.error, 'Ошибка загрузки сверки.');
  else if (latest.isPending) summary = 'Загрузка…';
  else if (!report) summary = 'Сверки ещё не было';
  else if (report.differences.length === 0) summary = `${formatDateTime(report.started_at)}: расхождений нет`;
  else {
    const count = report.differences.length;
    summary = `${formatDateTime(report.started_at)}: ${count} ${pluralRu(count, ['расхождение', 'расхождения', 'расхождений'])}`;
  }

  return (
    <Card className="mb-3" data-testid="reconciliation">
      <Card.Body>
        <div className="d-flex flex-wrap align-items-center justify-content-between gap-2">
          <div>
            <div className="fw-semibold">Сверка с ЮKassa и Telegram</div>
            <div className={report?.differences.length ? 'text-danger small' : 'text-body-secondary small'}>
              {summary}
            </div>
          </div>
          <BusyButton variant="outline-secondary" size="sm" busy={run.isPending} onClick={() => run.mutate()}>
            Сверить сейчас
          </BusyButton>
        </div>
        {run.isError && <div className="text-danger small mt-2">{errorMessage(run.error, 'Ошибка сверки.')}</div>}
        {failed.map((source) => (
          <div key={source.source} className="text-danger small mt-2">
            {SOURCE_LABELS[source.source]} не прочитана: {source.error}
          </div>
        ))}
        {report && report.differences.length > 0 && (
          <Table size="sm" responsive className="mt-3 mb-0 small">
            <thead>
              <tr>
                <th>Где</th>
                <th>Расхождение</th>
                <th>ID у провайдера</th>
                <th>Платёж</th>
                <th className="text-end">У нас</th>
                <th className="text-end">У провайдера</th>
              </tr>
            </thead>
            <tbody>
              {report.differences.map((d) => (
                <tr key={`${d.source}-${d.kind}-${d.provider_id}`}>
                  <td className="text-nowrap">{SOURCE_LABELS[d.source]}</td>
                  <td>{RECONCILIATION_KIND_LABELS[d.kind]}</td>
                  <td className="text-break">
                    <code>{d.provider_id}</code>
                  </td>
                  <td className="text-nowrap">
                    {d.payment_id === null ? '—' : `№${d.payment_id}`}
                    {d.user_id !== null && <div className="text-body-secondary">пользователь {d.user_id}</div>}
                  </td>
                  <td className="text-end text-nowrap">{amountOf(d, d.ours)}</td>
                  <td className="text-end text-nowrap">{amountOf(d, d.theirs)}</td>
                </tr>
              ))}
            </tbody>
          </Table>
        )}
      </Card.Body>
    </Card>
  );
}
