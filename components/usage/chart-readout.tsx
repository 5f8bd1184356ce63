"use client";

import { type KeyboardEvent, type PointerEvent, type ReactNode, useState } from "react";

const STEPS: Record<string, number> = { ArrowLeft: -1, ArrowDown: -1, ArrowRight: 1, ArrowUp: 1, PageDown: -24, PageUp: 24 };

/**
 * The only part of a usage chart that runs in the browser: which bar the pointer or the
 * arrow keys are on, outlined, and its value read out under the chart. The plot and its axes
 * are server-rendered and passed in; the plot is a slider over the chart's periods, so a
 * screen reader announces each period's value as the keys move along it.
 */
export function ChartReadout({
  title,
  readouts,
  latest,
  yAxis,
  xAxis,
  children,
}: {
  title: string;
  /** one sentence per period, oldest first: "Thu, Nov 20, 14:00–15:00 UTC: 42 requests" */
  readouts: string[];
  /** the period shown before the reader points at one: the newest with calls */
  latest: number;
  yAxis: ReactNode;
  xAxis: ReactNode;
  children: ReactNode;
}) {
  const [active, setActive] = useState<number | null>(null);
  const last = readouts.length - 1;
  const shown = active ?? latest;
  const select = (index: number) => setActive(Math.min(last, Math.max(0, index)));

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const target = event.key === "Home" ? 0 : event.key === "End" ? last : event.key in STEPS ? shown + STEPS[event.key]! : null;
    if (target === null) return;
    event.preventDefault();
    select(target);
  }

  function onPointerMove(event: PointerEvent<HTMLDivElement>) {
    const box = event.currentTarget.getBoundingClientRect();
    select(Math.floor(((event.clientX - box.left) / box.width) * readouts.length));
  }

  function onPointerLeave(event: PointerEvent<HTMLDivElement>) {
    if (document.activeElement !== event.currentTarget) setActive(null);
  }

  return (
    <div className="space-y-1">
      <div className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-2 pt-2">
        {yAxis}
        <div
          role="slider"
          tabIndex={0}
          aria-label={title}
          aria-orientation="horizontal"
          aria-valuemin={0}
          aria-valuemax={last}
          aria-valuenow={shown}
          aria-valuetext={readouts[shown]}
          onKeyDown={onKeyDown}
          onPointerMove={onPointerMove}
          onPointerLeave={onPointerLeave}
          onFocus={() => setActive(shown)}
          onBlur={() => setActive(null)}
          className="relative h-40 cursor-crosshair touch-pan-y"
        >
          {children}
          {active === null ? null : (
            <div
              aria-hidden="true"
              className="pointer-events-none absolute inset-y-0 bg-slate-900/10 outline outline-slate-500"
              style={{ left: `${(active / readouts.length) * 100}%`, width: `${100 / readouts.length}%` }}
            />
          )}
        </div>
        <div />
        {xAxis}
      </div>
      <p className="min-h-5 text-sm tabular-nums text-slate-800" data-testid="chart-readout">
        {active === null ? `Latest: ${readouts[latest]}` : readouts[active]}
      </p>
    </div>
  );
}
