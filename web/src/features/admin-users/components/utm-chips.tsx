import type { UtmStat } from '@gpt/contracts';
import Button from 'react-bootstrap/Button';

import { utmLabel } from '../format';

/** The strip of UTM-source statistics; a chip filters the list by its source, clicking it again clears that. */
export function UtmChips({
  stats,
  active,
  onPick,
}: {
  stats: UtmStat[];
  active: string;
  onPick: (source: string) => void;
}) {
  if (stats.length === 0) return null;
  return (
    <div className="utm-chips d-flex flex-wrap gap-2 mb-3" role="group" aria-label="Источники переходов">
      {stats.map((stat) => {
        const selected = stat.utm_source === active;
        return (
          <Button
            key={stat.utm_source}
            size="sm"
            variant={selected ? 'primary' : 'outline-primary'}
            className="rounded-pill"
            aria-pressed={selected}
            onClick={() => onPick(selected ? '' : stat.utm_source)}
          >
            <span translate="no">{utmLabel(stat.utm_source)}</span> <span className="utm-chip-count">{stat.count}</span>
          </Button>
        );
      })}
    </div>
  );
}
