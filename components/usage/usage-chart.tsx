import { scaleBand, scaleLinear } from "@visx/scale";
import { Bar, LinePath } from "@visx/shape";

type Point = { label: string; value: number; secondary?: number };

const round = (value: number) => Math.round(value * 10) / 10;
const [WIDTH, HEIGHT] = [100, 40];

/**
 * A bar chart from visx's scales and shapes, rendered on the server, so no chart
 * code reaches the browser (docs/decisions/010-developer-journey.md); an optional
 * second series is a line over the bars. The same numbers are in a table for
 * screen readers.
 */
export function UsageChart({ title, points, unit, secondaryName }: { title: string; points: Point[]; unit: string; secondaryName?: string }) {
  const max = Math.max(1, ...points.flatMap((point) => [point.value, point.secondary ?? 0]));
  const x = scaleBand({ domain: points.map((point) => point.label), range: [0, WIDTH], padding: 0.2 });
  const y = scaleLinear({ domain: [0, max], range: [HEIGHT, 2] });
  return (
    <figure className="min-w-0 space-y-2 rounded-lg border border-slate-200 bg-white p-4">
      <figcaption className="font-medium">
        {title}{" "}
        <span className="text-sm font-normal text-slate-600">
          (max {round(max)} {unit})
        </span>
      </figcaption>
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} preserveAspectRatio="none" className="h-32 w-full" aria-hidden="true">
        {points.map((point) => (
          <Bar key={point.label} x={x(point.label)} y={y(point.value)} width={x.bandwidth()} height={HEIGHT - y(point.value)} className="fill-blue-700">
            <title>{`${point.label}: ${round(point.value)} ${unit}`}</title>
          </Bar>
        ))}
        {secondaryName ? (
          <LinePath
            data={points}
            x={(point) => (x(point.label) ?? 0) + x.bandwidth() / 2}
            y={(point) => y(point.secondary ?? 0)}
            fill="none"
            strokeWidth={0.6}
            vectorEffect="non-scaling-stroke"
            className="stroke-amber-500"
          />
        ) : null}
      </svg>
      {secondaryName ? (
        <p className="text-xs text-slate-600">
          Bars: {title.toLowerCase()}; line: {secondaryName}.
        </p>
      ) : null}
      <table className="sr-only">
        <caption>{title}</caption>
        <tbody>
          {points.map((point) => (
            <tr key={point.label}>
              <th scope="row">{point.label}</th>
              <td>
                {round(point.value)} {unit}
                {secondaryName ? `; ${secondaryName} ${round(point.secondary ?? 0)} ${unit}` : ""}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
