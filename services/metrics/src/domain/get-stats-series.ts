import { StatsSeriesResponse } from '@gpt/contracts';
import type { MetricsDeps } from '../deps';
import { projectionsRepository as projections } from '../data/projections.repository';
import { rub, usd } from './money';
import { lastDays } from './periods';

/** One point per Moscow day of the last `days` days (today included), oldest first; quiet days are zeros. */
export async function getStatsSeries(deps: MetricsDeps, days: number): Promise<StatsSeriesResponse> {
  const range = lastDays(deps.clock(), days);
  const from = range[0] as string;
  const to = range[range.length - 1] as string;
  const rows = new Map((await projections(deps.db).readDays({ from, to })).map((row) => [row.day, row]));
  return StatsSeriesResponse.parse({
    days,
    series: range.map((date) => {
      const row = rows.get(date);
      return {
        date,
        newUsers: row?.newUsers ?? 0,
        messages: row?.messages ?? 0,
        spent: usd(row?.spentUsd ?? '0'),
        deposited: rub(row?.depositedRub ?? '0'),
      };
    }),
  });
}
