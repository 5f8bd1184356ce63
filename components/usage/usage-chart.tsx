type Point = { label: string; value: number; secondary?: number };

const round = (value: number) => Math.round(value * 10) / 10;

/**
 * A bar chart drawn as SVG on the server, so no chart code reaches the browser;
 * an optional second series is a line over the bars. The same numbers are in a
 * table for screen readers.
 */
export function UsageChart({ title, points, unit, secondaryName }: { title: string; points: Point[]; unit: string; secondaryName?: string }) {
  const max = Math.max(1, ...points.flatMap((point) => [point.value, point.secondary ?? 0]));
  const width = 100 / Math.max(points.length, 1);
  const y = (value: number) => 40 - (value / max) * 38;
  const line = secondaryName ? points.map((point, index) => `${index * width + width / 2},${y(point.secondary ?? 0)}`).join(" ") : "";
  return (
    <figure className="min-w-0 space-y-2 rounded-lg border border-slate-200 bg-white p-4">
      <figcaption className="font-medium">
        {title} <span className="text-sm font-normal text-slate-600">(max {round(max)} {unit})</span>
      </figcaption>
      <svg viewBox="0 0 100 40" preserveAspectRatio="none" className="h-32 w-full" aria-hidden="true">
        {points.map((point, index) => (
          <rect key={point.label} x={index * width + width * 0.1} y={y(point.value)} width={width * 0.8} height={40 - y(point.value)} className="fill-blue-700">
            <title>{`${point.label}: ${round(point.value)} ${unit}`}</title>
          </rect>
        ))}
        {line ? <polyline points={line} fill="none" strokeWidth={0.6} vectorEffect="non-scaling-stroke" className="stroke-amber-500" /> : null}
      </svg>
      {secondaryName ? <p className="text-xs text-slate-600">Bars: {title.toLowerCase()}; line: {secondaryName}.</p> : null}
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
