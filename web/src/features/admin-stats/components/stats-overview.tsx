import { lazy, Suspense } from 'react';
import Col from 'react-bootstrap/Col';
import Row from 'react-bootstrap/Row';

import { ErrorBanner } from '@/components/ui/error-banner';
import { SpinnerBlock } from '@/components/ui/spinner-block';

import { useAdminStats, type AdminStats } from '../api/get-admin-stats';
import {
  formatBytes,
  formatCount,
  formatLoad,
  formatPercent,
  formatRub,
  exactUsdTotal,
  formatUptime,
  formatUsdTotal,
  percentOf,
} from '../format';
import { LastMessageCard } from './last-message-card';
import { ReferralsCard } from './referrals-card';
import { SubscriptionsCard } from './subscriptions-card';
import { PeriodCard, StatTile, type Figure } from './stat-tiles';

// chart.js is fetched after the figures, and only by the admin area.
const StatsChart = lazy(() => import('./stats-chart').then((module) => ({ default: module.StatsChart })));

/** docs/product.md, Errors text when the figures cannot be loaded. */
const STATS_ERROR = 'Ошибка получения статистики';

type PeriodField = 'newUsers' | 'messages' | 'spent' | 'deposited';

/** The admin dashboard (docs/product.md, Screens): every figure is a dash until loaded and after a failure. */
export function StatsOverview() {
  const { data, isError } = useAdminStats();
  const s: Partial<AdminStats> = isError || !data ? {} : data;

  const period = (
    field: PeriodField,
    format: (value: number | string | undefined) => string,
    exact?: (value: number | string | undefined) => string | undefined,
  ) => {
    const at = (suffix: 'Today' | 'Week' | 'Month'): Figure => ({
      stat: `${field}${suffix}`,
      value: format(s[`${field}${suffix}`]),
      exact: exact?.(s[`${field}${suffix}`]),
    });
    return [at('Today'), at('Week'), at('Month')] as const;
  };

  return (
    <>
      <ErrorBanner message={isError ? STATS_ERROR : null} />
      <Row xs={1} sm={2} xl={4} className="g-3 mb-3">
        <Col>
          <StatTile
            icon="users"
            label="Пользователи"
            figure={{ stat: 'usersCount', value: formatCount(s.usersCount) }}
          />
        </Col>
        <Col>
          <StatTile icon="cpu" label="Процессор" figure={{ stat: 'cpuUsage', value: formatPercent(s.cpuUsage) }} />
        </Col>
        <Col>
          <StatTile
            icon="memory"
            label="Память"
            figure={{ stat: 'memoryUsage', value: formatBytes(s.memoryUsage) }}
            hint={
              <>
                из <span data-stat="totalMemory">{formatBytes(s.totalMemory)}</span>
              </>
            }
            usagePercent={percentOf(s.memoryUsage, s.totalMemory)}
          />
        </Col>
        <Col>
          <StatTile
            icon="disk"
            label="Диск"
            figure={{ stat: 'diskUsed', value: formatBytes(s.diskUsed) }}
            hint={
              <>
                из <span data-stat="diskTotal">{formatBytes(s.diskTotal)}</span>
              </>
            }
            usagePercent={percentOf(s.diskUsed, s.diskTotal)}
          />
        </Col>
      </Row>
      <Row xs={1} md={2} className="g-3 mb-3">
        <Col>
          <StatTile
            icon="activity"
            label="Средняя нагрузка"
            figure={{ stat: 'loadAverage', value: formatLoad(s.loadAverage) }}
            hint="за 1, 5 и 15 минут"
          />
        </Col>
        <Col>
          <StatTile
            icon="clock"
            label="Время работы"
            figure={{ stat: 'uptimeSec', value: formatUptime(s.uptimeSec) }}
            hint="с запуска сервиса"
          />
        </Col>
      </Row>
      {/* Two per row at any width: beside the sidebar a quarter is too narrow for three sums like «1 600,00 ₽». */}
      <Row xs={1} md={2} className="g-3 mb-3">
        <Col>
          <PeriodCard icon="users" label="Новые пользователи" figures={period('newUsers', formatCount)} />
        </Col>
        <Col>
          <PeriodCard icon="chat" label="Сообщения" figures={period('messages', formatCount)} />
        </Col>
        <Col>
          <PeriodCard icon="money" label="Потрачено, $" figures={period('spent', formatUsdTotal, exactUsdTotal)} />
        </Col>
        <Col>
          <PeriodCard icon="card" label="Пополнено, ₽" figures={period('deposited', formatRub)} />
        </Col>
        <Col>
          <ReferralsCard />
        </Col>
        <Col>
          <SubscriptionsCard />
        </Col>
      </Row>
      <Row xs={1} xl={2} className="g-3">
        <Col xl={7}>
          <Suspense fallback={<SpinnerBlock />}>
            <StatsChart />
          </Suspense>
        </Col>
        <Col xl={5}>
          <LastMessageCard message={isError ? null : s.lastMessage} />
        </Col>
      </Row>
    </>
  );
}
