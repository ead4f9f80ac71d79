import {
  BarController,
  BarElement,
  CategoryScale,
  Chart as ChartJS,
  LinearScale,
  Tooltip,
  type ChartData,
  type ChartOptions,
} from 'chart.js';
import { useMemo, useState } from 'react';
import Card from 'react-bootstrap/Card';
import Nav from 'react-bootstrap/Nav';
import { Bar } from 'react-chartjs-2';

import { SpinnerBlock } from '@/components/ui/spinner-block';

import { CHART_DAYS, useStatsSeries, type StatsSeriesPoint } from '../api/get-stats-series';
import { formatCount, formatRub, formatUsd } from '../format';

// Only the pieces a bar chart needs, so the admin chunk stays small.
ChartJS.register(BarController, BarElement, CategoryScale, LinearScale, Tooltip);

interface Metric {
  key: 'messages' | 'newUsers' | 'spent' | 'deposited';
  label: string;
  color: string;
  format: (value: number) => string;
}

const METRICS: readonly Metric[] = [
  { key: 'messages', label: 'Сообщения', color: '#0d6efd', format: formatCount },
  { key: 'newUsers', label: 'Новые пользователи', color: '#6f42c1', format: formatCount },
  { key: 'spent', label: 'Потрачено, $', color: '#fd7e14', format: formatUsd },
  { key: 'deposited', label: 'Пополнено, ₽', color: '#198754', format: formatRub },
];

const dayLabel = new Intl.DateTimeFormat('ru-RU', { day: '2-digit', month: '2-digit', timeZone: 'UTC' });

/** '2025-10-31' → «31.10» (a calendar date: no time zone may shift it). */
function shortDay(date: string): string {
  return dayLabel.format(new Date(`${date}T00:00:00Z`));
}

function chartOf(series: StatsSeriesPoint[], metric: Metric) {
  const data: ChartData<'bar'> = {
    labels: series.map((point) => shortDay(point.date)),
    datasets: [
      {
        label: metric.label,
        data: series.map((point) => Number(point[metric.key])),
        backgroundColor: metric.color,
        borderRadius: 3,
        maxBarThickness: 28,
      },
    ],
  };
  const options: ChartOptions<'bar'> = {
    responsive: true,
    maintainAspectRatio: false,
    locale: 'ru-RU',
    animation: false,
    plugins: {
      legend: { display: false },
      tooltip: { callbacks: { label: (item) => `${metric.label}: ${metric.format(item.parsed.y ?? 0)}` } },
    },
    scales: {
      x: { grid: { display: false }, ticks: { maxRotation: 0, autoSkipPadding: 8 } },
      y: { beginAtZero: true, ticks: { precision: metric.key === 'messages' || metric.key === 'newUsers' ? 0 : 2 } },
    },
  };
  return { data, options };
}

/** Messages, new users, spend and deposits per Moscow day over the last 30 days. */
export function StatsChart() {
  const series = useStatsSeries(CHART_DAYS);
  const [metricKey, setMetricKey] = useState<Metric['key']>('messages');
  const metric = METRICS.find((m) => m.key === metricKey) ?? (METRICS[0] as Metric);
  const chart = useMemo(() => (series.data ? chartOf(series.data.series, metric) : null), [series.data, metric]);

  return (
    <Card className="stat-tile h-100">
      <Card.Body>
        <div className="d-flex flex-wrap align-items-center justify-content-between gap-2 mb-3">
          <div className="stat-label">За {CHART_DAYS} дней</div>
          <Nav
            variant="pills"
            className="chart-tabs"
            activeKey={metricKey}
            onSelect={(key) => key && setMetricKey(key as Metric['key'])}
          >
            {METRICS.map((m) => (
              <Nav.Item key={m.key}>
                <Nav.Link eventKey={m.key} as="button" type="button">
                  {m.label}
                </Nav.Link>
              </Nav.Item>
            ))}
          </Nav>
        </div>
        <div className="stats-chart" role="img" aria-label={`График: ${metric.label} по дням`}>
          {chart && !series.isError ? (
            <Bar data={chart.data} options={chart.options} aria-hidden />
          ) : series.isError ? (
            <p className="text-body-secondary text-center pt-5 mb-0">График недоступен</p>
          ) : (
            <SpinnerBlock />
          )}
        </div>
      </Card.Body>
    </Card>
  );
}
