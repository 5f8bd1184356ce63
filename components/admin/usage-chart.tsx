type Point = { label: string; value: number };

/** A plain SVG bar chart with the same numbers in a table for screen readers. */
export function UsageChart({ title, points, unit }: { title: string; points: Point[]; unit: string }) {
  const max = Math.max(1, ...points.map((point) => point.value));
  const width = 100 / Math.max(points.length, 1);
  return (
    <figure className="space-y-2 rounded-lg border border-slate-200 bg-white p-4">
      <figcaption className="font-medium">
        {title} <span className="text-sm font-normal text-slate-600">(max {Math.round(max * 10) / 10} {unit})</span>
      </figcaption>
      <svg viewBox="0 0 100 40" preserveAspectRatio="none" className="h-32 w-full" aria-hidden="true">
        {points.map((point, index) => {
          const height = (point.value / max) * 38;
          return (
            <rect key={point.label} x={index * width + width * 0.1} y={40 - height} width={width * 0.8} height={height} className="fill-blue-700">
              <title>{`${point.label}: ${Math.round(point.value * 10) / 10} ${unit}`}</title>
            </rect>
          );
        })}
      </svg>
      <table className="sr-only">
        <caption>{title}</caption>
        <tbody>
          {points.map((point) => (
            <tr key={point.label}>
              <th scope="row">{point.label}</th>
              <td>
                {Math.round(point.value * 10) / 10} {unit}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
