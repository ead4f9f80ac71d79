import { useId, type ReactNode } from 'react';
import Card from 'react-bootstrap/Card';
import ProgressBar from 'react-bootstrap/ProgressBar';

import { Icon, type IconName } from '@/components/ui/icons';

/** One figure: `stat` names the field of the stats answer it shows (for tests and people reading the DOM). */
export interface Figure {
  stat: string;
  value: string;
  /** The exact value, as a tooltip, when `value` is rounded. */
  exact?: string;
}

/** A tile with one headline figure, an optional hint and a usage bar. */
export function StatTile({
  icon,
  label,
  figure,
  hint,
  usagePercent,
}: {
  icon: IconName;
  label: string;
  figure: Figure;
  hint?: ReactNode;
  /** Draws a usage bar when known. */
  usagePercent?: number | null;
}) {
  const labelId = useId();
  return (
    <Card className="stat-tile h-100" role="group" aria-labelledby={labelId}>
      <Card.Body className="d-flex gap-3 align-items-start">
        <div className="stat-icon">
          <Icon name={icon} size={20} />
        </div>
        <div className="min-w-0 flex-grow-1">
          <div className="stat-label" id={labelId}>
            {label}
          </div>
          <div className="stat-value" data-stat={figure.stat}>
            {figure.value}
          </div>
          {hint && <div className="stat-hint">{hint}</div>}
          {usagePercent !== undefined && (
            <ProgressBar
              className="stat-usage mt-2"
              now={usagePercent ?? 0}
              variant={usagePercent !== null && usagePercent >= 90 ? 'danger' : 'primary'}
              aria-label={`${label}: занято`}
            />
          )}
        </div>
      </Card.Body>
    </Card>
  );
}

const PERIOD_NAMES = ['Сегодня', 'Неделя', 'Месяц'] as const;

/** Today, this week and this month of one figure (Moscow calendar; the week starts on Monday). */
export function PeriodCard({
  icon,
  label,
  figures,
}: {
  icon: IconName;
  label: string;
  figures: readonly [Figure, Figure, Figure];
}) {
  const labelId = useId();
  return (
    <Card className="stat-tile h-100" role="group" aria-labelledby={labelId}>
      <Card.Body>
        <div className="d-flex align-items-center gap-2 mb-3">
          <div className="stat-icon stat-icon-sm">
            <Icon name={icon} size={16} />
          </div>
          <div className="stat-label" id={labelId}>
            {label}
          </div>
        </div>
        <dl className="period-grid mb-0">
          {figures.map((figure, i) => (
            <div key={figure.stat}>
              <dt className="small text-body-secondary fw-normal">{PERIOD_NAMES[i]}</dt>
              <dd className="period-value mb-0" data-stat={figure.stat} title={figure.exact}>
                {figure.value}
              </dd>
            </div>
          ))}
        </dl>
      </Card.Body>
    </Card>
  );
}
