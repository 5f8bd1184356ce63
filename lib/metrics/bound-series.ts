import type { Registry } from "prom-client";

/**
 * Counters and histograms whose series are bound once to their label values
 * and then updated with plain arithmetic. prom-client's own children hash
 * their labels on every `inc` and `observe`; on the gateway's path, which
 * counts every request, a bound series costs one addition instead. The
 * registry renders them with prom-client's own metrics at scrape time.
 */
type Labels = Record<string, string>;

type MetricDefinition<L extends string> = { name: string; help: string; labelNames: readonly L[] };

function labelsOf(labelNames: readonly string[], values: readonly string[]): Labels {
  return Object.fromEntries(labelNames.map((name, index) => [name, values[index] ?? ""]));
}

export type BoundCounter = { inc(amount?: number): void };

export function boundCounter<L extends string>(registry: Registry, definition: MetricDefinition<L>) {
  const series = new Map<string, { labels: Labels; value: number }>();
  registry.registerMetric({
    name: definition.name,
    get: () => ({
      name: definition.name,
      help: definition.help,
      type: "counter",
      aggregator: "sum",
      values: [...series.values()].map(({ labels, value }) => ({ labels, value })),
    }),
  } as never);
  return {
    /** the series of these label values, in `labelNames` order */
    bind(...values: string[]): BoundCounter {
      const key = values.join("\n");
      let entry = series.get(key);
      if (!entry) {
        entry = { labels: labelsOf(definition.labelNames, values), value: 0 };
        series.set(key, entry);
      }
      const bound = entry;
      return {
        inc(amount = 1) {
          bound.value += amount;
        },
      };
    },
  };
}

export type BoundHistogram = { observe(value: number): void };

export function boundHistogram<L extends string>(registry: Registry, definition: MetricDefinition<L> & { buckets: readonly number[] }) {
  const { name, buckets } = definition;
  const series = new Map<string, { labels: Labels; counts: Float64Array; sum: number }>();
  registry.registerMetric({
    name,
    get: () => ({
      name,
      help: definition.help,
      type: "histogram",
      aggregator: "sum",
      values: [...series.values()].flatMap(({ labels, counts, sum }) => {
        let cumulative = 0;
        const lines = buckets.map((le, index) => {
          cumulative += counts[index]!;
          return { metricName: `${name}_bucket`, labels: { ...labels, le }, value: cumulative };
        });
        const count = cumulative + counts[buckets.length]!;
        return [
          ...lines,
          { metricName: `${name}_bucket`, labels: { ...labels, le: "+Inf" }, value: count },
          { metricName: `${name}_sum`, labels, value: sum },
          { metricName: `${name}_count`, labels, value: count },
        ];
      }),
    }),
  } as never);
  return {
    bind(...values: string[]): BoundHistogram {
      const key = values.join("\n");
      let entry = series.get(key);
      if (!entry) {
        entry = { labels: labelsOf(definition.labelNames, values), counts: new Float64Array(buckets.length + 1), sum: 0 };
        series.set(key, entry);
      }
      const bound = entry;
      return {
        observe(value) {
          let index = 0;
          while (index < buckets.length && value > buckets[index]!) index++;
          bound.counts[index] = bound.counts[index]! + 1;
          bound.sum += value;
        },
      };
    },
  };
}
