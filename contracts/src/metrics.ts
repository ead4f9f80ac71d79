import { z } from 'zod';
import { IsoDate, IsoDateTime, Money, UsdAmount } from './common';

/**
 * Metrics service: the admin dashboard. Host figures are measured where the service runs;
 * business figures come from the service's own projections of events. Periods (today, week,
 * month) are the calendar day, ISO week and month in Europe/Moscow.
 */

/** The newest recorded message, as the dashboard shows it. */
export const LastMessage = z
  .object({
    username: z
      .string()
      .nullable()
      .meta({ description: 'The person as named everywhere: username, else names, else Telegram id' }),
    created_at: IsoDateTime,
    user_message: z.string(),
    bot_response: z.string().nullable(),
    model: z.string(),
    total_cost: UsdAmount,
  })
  .meta({ id: 'LastMessage' });
export type LastMessage = z.infer<typeof LastMessage>;

const count = z.int().min(0);
const bytes = z.int().min(0).meta({ description: 'Bytes' });

/** `GET /api/admin/stats`: every docs/product.md, Data field. */
export const AdminStats = z
  .object({
    usersCount: count,
    memoryUsage: bytes,
    totalMemory: bytes,
    cpuUsage: z.number().min(0).max(100).meta({ description: 'Percent over a short recent window' }),
    loadAverage: z.tuple([z.number(), z.number(), z.number()]).meta({ description: '1, 5 and 15 minutes' }),
    uptimeSec: z.number().min(0),
    diskUsed: bytes,
    diskTotal: bytes,
    newUsersToday: count,
    newUsersWeek: count,
    newUsersMonth: count,
    spentToday: UsdAmount,
    spentWeek: UsdAmount,
    spentMonth: UsdAmount,
    depositedToday: Money,
    depositedWeek: Money,
    depositedMonth: Money,
    messagesToday: count,
    messagesWeek: count,
    messagesMonth: count,
    lastMessage: LastMessage.nullable(),
  })
  .meta({ id: 'AdminStats' });
export type AdminStats = z.infer<typeof AdminStats>;

const daysMessage = 'Количество дней должно быть целым числом от 1 до 366';

/** `GET /api/admin/stats/series?days=30`. */
export const StatsSeriesQuery = z.object({
  days: z.preprocess(
    (value) => (value === '' ? undefined : value),
    z.coerce
      .number({ error: daysMessage })
      .int({ error: daysMessage })
      .min(1, { error: daysMessage })
      .max(366, { error: daysMessage })
      .default(30),
  ),
});
export type StatsSeriesQuery = z.infer<typeof StatsSeriesQuery>;

/** One Moscow calendar day of the chart. */
export const StatsSeriesPoint = z
  .object({
    date: IsoDate,
    newUsers: count,
    messages: count,
    spent: UsdAmount.meta({ description: 'Dollars' }),
    deposited: Money.meta({ description: 'Roubles' }),
  })
  .meta({ id: 'StatsSeriesPoint' });
export type StatsSeriesPoint = z.infer<typeof StatsSeriesPoint>;

/** Oldest day first, one point per day including days without activity. */
export const StatsSeriesResponse = z
  .object({ days: z.int().min(1), series: z.array(StatsSeriesPoint) })
  .meta({ id: 'StatsSeriesResponse' });
export type StatsSeriesResponse = z.infer<typeof StatsSeriesResponse>;
