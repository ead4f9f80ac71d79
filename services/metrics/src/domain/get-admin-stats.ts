import { AdminStats } from '@gpt/contracts';
import type { MetricsDeps } from '../deps';
import { projectionsRepository as projections, type PeriodTotals } from '../data/projections.repository';
import { readHostFigures } from '../host/host-figures';
import { rub, usd } from './money';
import { periodsAt } from './periods';
import { metricsErrors } from './errors';

/** The admin dashboard: host figures measured now, business figures from the daily projections. */
export async function getAdminStats(deps: MetricsDeps): Promise<AdminStats> {
  const periods = periodsAt(deps.clock());
  try {
    const [host, totals, usersCount, last] = await Promise.all([
      readHostFigures(deps.cpu, deps.config.METRICS_DISK_PATH ?? deps.config.DATA_DIR),
      projections(deps.db).readPeriods({
        today: { from: periods.today, to: periods.today },
        week: periods.week,
        month: periods.month,
      }),
      projections(deps.db).readUsersCount(),
      projections(deps.db).readLastMessage(),
    ]);
    const { today, week, month } = totals;
    const pick = (read: (t: PeriodTotals) => number | string) => [read(today), read(week), read(month)] as const;
    const [newUsersToday, newUsersWeek, newUsersMonth] = pick((t) => t.newUsers);
    const [messagesToday, messagesWeek, messagesMonth] = pick((t) => t.messages);
    const [spentToday, spentWeek, spentMonth] = pick((t) => usd(t.spentUsd));
    const [depositedToday, depositedWeek, depositedMonth] = pick((t) => rub(t.depositedRub));
    return AdminStats.parse({
      usersCount,
      ...host,
      newUsersToday,
      newUsersWeek,
      newUsersMonth,
      spentToday,
      spentWeek,
      spentMonth,
      depositedToday,
      depositedWeek,
      depositedMonth,
      messagesToday,
      messagesWeek,
      messagesMonth,
      lastMessage: last && {
        username: last.username,
        created_at: last.createdAt,
        user_message: last.userMessage,
        bot_response: last.botResponse,
        model: last.model,
        total_cost: usd(last.totalCost),
      },
    });
  } catch (err) {
    deps.logger.error({ err }, 'admin stats could not be read');
    throw metricsErrors.statsUnavailable();
  }
}
