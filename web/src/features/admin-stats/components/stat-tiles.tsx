import { useId, type ReactNode } from 'react';
import Card from 'react-bootstrap/Card';

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
            // Bootstrap 5.3's markup: the named progressbar is the track, the bar inside only draws.
            <div
              className="progress stat-usage mt-2"
              role="progressbar"
              aria-label={`${label}: занято`}
              aria-valuenow={Math.round(usagePercent ?? 0)}
              aria-valuemin={0}
              aria-valuemax={100}
            >
              <div
                className={`progress-bar bg-${usagePercent !== null && usagePercent >= 90 ? 'danger' : 'primary'}`}
                style={{ width: `${usagePercent ?? 0}%` }}
              />
            </div>
          )}
        </div>
      </Card.Body>
    </Card>
  );
}

const PERIOD_NAMES = ['Сегодня', 'Неделя', 'Месяц'] as const;

/**
 * Three figures under their names: by default today, this week and this month of one figure
 * (Moscow calendar; the week starts on Monday).
 */
export function PeriodCard({
  icon,
  label,
  figures,
  names = PERIOD_NAMES,
}: {
  icon: IconName;
  label: string;
  figures: readonly [Figure, Figure, Figure];
  names?: readonly [string, string, string];
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
              <dt className="small text-body-secondary fw-normal">{names[i]}</dt>
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
