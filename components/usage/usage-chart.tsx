import { scaleBand, scaleLinear } from "@visx/scale";
import { Bar, LinePath } from "@visx/shape";
import { DataTable } from "@/components/data-table";
import { ChartReadout } from "./chart-readout";
import type { TimeTick } from "./time-axis";

/** One period of a chart: its bar (`value`, null for a period without calls), the optional line's point, and both as a reader is told them. */
export type ChartPoint = { period: string; value: number | null; secondary?: number | null; text: string };

const [WIDTH, HEIGHT] = [100, 40];
const TICK_NUMBER = new Intl.NumberFormat("en-US", { maximumFractionDigits: 2 });

/**
 * A bar chart from visx's scales and shapes, rendered on the server, so no chart code
 * reaches the browser (docs/decisions/022-readable-usage-charts.md): a value axis, a time
 * axis, and an optional second series as a line over the bars. Pointing at a bar, or the
 * arrow keys on the focused plot, read a period's value out (`ChartReadout`). The same
 * numbers are in a table for screen readers.
 */
export function UsageChart({
  title,
  points,
  ticks,
  unit,
  wholeNumbers = false,
  legend,
}: {
  title: string;
  points: ChartPoint[];
  ticks: TimeTick[];
  /** after each value-axis label: "%", " ms", or "" */
  unit: string;
  /** counts: the value axis has no fractional steps */
  wholeNumbers?: boolean;
  legend?: string;
}) {
  const largest = Math.max(0, ...points.flatMap((point) => [point.value ?? 0, point.secondary ?? 0]));
  const y = scaleLinear({ domain: [0, Math.max(largest, wholeNumbers ? 4 : 1)], range: [HEIGHT, 0], nice: 4 });
  const values = y.ticks(4);
  const x = scaleBand({ domain: points.map((_, index) => index), range: [0, WIDTH], paddingInner: 0.2, paddingOuter: 0.1 });
  const latest = points.findLastIndex((point) => point.value !== null);
  const center = (index: number) => (x(index) ?? 0) + x.bandwidth() / 2;
  return (
    <figure className="relative min-w-0 space-y-1 rounded-lg border border-slate-200 bg-white p-4">
      <figcaption className="font-medium">{title}</figcaption>
      <ChartReadout
        title={title}
        readouts={points.map((point) => `${point.period}: ${point.text}`)}
        latest={latest === -1 ? points.length - 1 : latest}
        yAxis={
          <div aria-hidden="true" className="-my-2 flex flex-col-reverse justify-between text-right text-xs leading-4 text-slate-600 tabular-nums">
            {values.map((value) => (
              <span key={value}>{`${TICK_NUMBER.format(value)}${unit}`}</span>
            ))}
          </div>
        }
        xAxis={
          <div aria-hidden="true" className="relative h-6 text-xs text-slate-600">
            {ticks.map((tick, index) => (
              <span
                key={tick.label}
                className={`absolute top-0 flex -translate-x-1/2 flex-col items-center whitespace-nowrap ${index % 2 === 1 ? "max-sm:hidden" : ""}`}
                style={{ left: `${tick.at * 100}%` }}
              >
                <span className="h-1.5 w-px bg-slate-400" />
                {tick.label}
              </span>
            ))}
          </div>
        }
      >
        <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} preserveAspectRatio="none" className="h-full w-full overflow-visible" aria-hidden="true">
          {values.map((value) => (
            <line key={value} x1={0} x2={WIDTH} y1={y(value)} y2={y(value)} vectorEffect="non-scaling-stroke" className="stroke-slate-200" />
          ))}
          {points.map((point, index) =>
            point.value ? (
              <Bar key={point.period} x={x(index)} y={y(point.value)} width={x.bandwidth()} height={HEIGHT - y(point.value)} className="fill-blue-700" />
            ) : null,
          )}
          {points.some((point) => point.secondary !== undefined) ? (
            <LinePath
              data={points.map((point, index) => ({ index, value: point.secondary ?? null }))}
              defined={(point) => point.value !== null}
              x={(point) => center(point.index)}
              y={(point) => y(point.value ?? 0)}
              fill="none"
              strokeWidth={2}
              vectorEffect="non-scaling-stroke"
              className="stroke-amber-600"
            />
          ) : null}
          <line x1={0} x2={WIDTH} y1={HEIGHT} y2={HEIGHT} vectorEffect="non-scaling-stroke" className="stroke-slate-400" />
        </svg>
      </ChartReadout>
      {legend ? <p className="text-xs text-slate-600">{legend}</p> : null}
      <DataTable
        caption={title}
        screenReaderOnly
        rows={points}
        rowKey={(point) => point.period}
        columns={[
          { header: "Period", cell: (point) => point.period, rowHeader: true },
          { header: "Value", cell: (point) => point.text },
        ]}
      />
    </figure>
  );
}
