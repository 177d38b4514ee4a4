/**
 * Figures per day as SVG bar charts, one small chart per series over the same days, each an
 * image with its own title and description (total, highest day) for screen readers, and every
 * number again in a table under a disclosure. Used by /dashboard/analytics and
 * /dashboard/platform-analytics. Days are UTC days (`YYYY-MM-DD`).
 */
import { useId } from 'react';
import { DataTable } from '~/components/ui/data-table';
import { averageOf, formatAverage, formatDay, sumOf } from '~/lib/analytics';
import { formatMoney } from '~/lib/dashboard-format';

export interface ChartSeries {
  label: string;
  format: 'count' | 'money';
  /** One value per day, in the order of `days`. */
  values: readonly number[];
  /**
   * What the one figure beside the title is: the days added up (`total`, the default), or their
   * daily average (`average`), for a figure that does not add up over days (active users: the same
   * person on ten days is one person, not ten).
   */
  summary?: 'total' | 'average';
}

const WIDTH = 600;
const HEIGHT = 180;
const LEFT = 76;
const BOTTOM = 24;
const TOP = 10;

function formatValue(value: number, format: ChartSeries['format']): string {
  return format === 'money' ? formatMoney(value) : value.toLocaleString('en-US');
}

/** A round top for the axis: 1, 2 or 5 times a power of ten, at least the highest value. */
function niceMax(max: number): number {
  if (max <= 0) return 1;
  const power = 10 ** Math.floor(Math.log10(max));
  const step = [1, 2, 5, 10].find((factor) => factor * power >= max) ?? 10;
  return step * power;
}

/** The figure beside a series' title, with what it counts: `12 in total`, `3.4 daily average`. */
export function seriesSummary(series: ChartSeries): string {
  if (series.summary === 'average') return `${formatAverage(averageOf(series.values, (value) => value))} daily average`;
  return `${formatValue(
    sumOf(series.values, (value) => value, series.format === 'money'),
    series.format,
  )} in total`;
}

export function describeSeries(days: readonly string[], series: ChartSeries): string {
  const first = days[0];
  const last = days.at(-1);
  if (!first || !last) return `${series.label}: no days.`;
  const span = `from ${formatDay(first)} to ${formatDay(last)}`;
  if (series.values.every((value) => value === 0)) return `${series.label} per day ${span}: none.`;
  const highest = Math.max(...series.values);
  const highestDay = days[series.values.indexOf(highest)] ?? first;
  return `${series.label} per day ${span}: ${seriesSummary(series)}, highest ${formatValue(highest, series.format)} on ${formatDay(highestDay)}.`;
}

function BarChart({ days, series }: { days: readonly string[]; series: ChartSeries }) {
  const id = useId();
  const top = niceMax(Math.max(0, ...series.values));
  const plotWidth = WIDTH - LEFT;
  const plotHeight = HEIGHT - TOP - BOTTOM;
  const slot = plotWidth / Math.max(1, days.length);
  const y = (value: number) => TOP + plotHeight - (value / top) * plotHeight;
  const ticks = [0, top / 2, top];
  const labelled = days.length > 2 ? [0, Math.floor((days.length - 1) / 2), days.length - 1] : days.map((_, i) => i);
  return (
    <figure className="flex flex-col gap-2">
      <figcaption className="text-sm font-medium">
        {series.label}: <span className="tabular-nums">{seriesSummary(series)}</span>
      </figcaption>
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        role="img"
        aria-labelledby={`${id}-title ${id}-desc`}
        className="h-auto w-full text-xs"
      >
        <title id={`${id}-title`}>{`${series.label} per day`}</title>
        <desc id={`${id}-desc`}>{describeSeries(days, series)}</desc>
        {ticks.map((tick) => (
          <g key={tick}>
            <line
              x1={LEFT}
              x2={WIDTH}
              y1={y(tick)}
              y2={y(tick)}
              className="stroke-slate-200 dark:stroke-slate-700"
              strokeWidth={1}
            />
            <text
              x={LEFT - 6}
              y={y(tick)}
              textAnchor="end"
              dominantBaseline="middle"
              className="fill-slate-700 dark:fill-slate-300"
            >
              {series.format === 'money' ? formatMoney(tick) : Number.isInteger(tick) ? tick : ''}
            </text>
          </g>
        ))}
        {series.values.map((value, index) => (
          <rect
            key={days[index]}
            x={LEFT + index * slot + slot * 0.15}
            width={slot * 0.7}
            y={y(value)}
            height={Math.max(0, TOP + plotHeight - y(value))}
            rx={2}
            className="fill-brand-600 dark:fill-brand-400"
          />
        ))}
        {labelled.map((index) => (
          <text
            key={index}
            x={LEFT + index * slot + slot / 2}
            y={HEIGHT - 6}
            textAnchor={index === 0 ? 'start' : index === days.length - 1 ? 'end' : 'middle'}
            className="fill-slate-700 dark:fill-slate-300"
          >
            {days[index] ? formatDay(days[index]) : ''}
          </text>
        ))}
      </svg>
    </figure>
  );
}

/**
 * A titled section: the charts of every series, then the same numbers in a table (collapsed;
 * it opens without JavaScript, it is a `<details>`).
 */
export function DailyChart({
  title,
  description,
  days,
  series,
}: {
  title: string;
  description: string;
  days: readonly string[];
  series: readonly ChartSeries[];
}) {
  const id = useId();
  return (
    <section aria-labelledby={`${id}-heading`} className="flex flex-col gap-4">
      <div>
        <h2 id={`${id}-heading`} className="text-xl font-semibold">
          {title}
        </h2>
        <p className="mt-1 text-sm text-slate-700 dark:text-slate-300">{description}</p>
      </div>
      <div className="grid gap-6 lg:grid-cols-2">
        {series.map((one) => (
          <div key={one.label} className="rounded-xl border border-slate-200 p-4 dark:border-slate-700">
            <BarChart days={days} series={one} />
          </div>
        ))}
      </div>
      <details className="rounded-xl border border-slate-200 p-4 dark:border-slate-700">
        <summary className="cursor-pointer font-medium">Show the numbers per day as a table</summary>
        <div className="mt-3">
          <DataTable
            caption={`${title}, per day (UTC)`}
            columns={[
              {
                header: 'Day',
                rowHeader: true,
                cell: (index: number) => <time dateTime={days[index]}>{formatDay(days[index] ?? '')}</time>,
              },
              ...series.map((one) => ({
                header: one.label,
                numeric: true,
                cell: (index: number) => formatValue(one.values[index] ?? 0, one.format),
              })),
            ]}
            rows={days.map((_, index) => index)}
            rowKey={(index) => days[index] ?? String(index)}
            framed={false}
          />
        </div>
      </details>
    </section>
  );
}
