"use client";

import dynamic from "next/dynamic";
import { useEffect, useRef, useState } from "react";
import { onTestTokenApplied } from "./authorize-event";
import type { SwaggerPanelProps } from "./swagger-panel";

// Swagger UI is large and browser-only: it loads on the Reference tab and nowhere else.
const SwaggerPanel = dynamic(() => import("./swagger-panel"), {
  ssr: false,
  loading: () => <Status>Loading the interactive reference…</Status>,
});

/** Any of these tells that the visitor is on the page to use it. */
const INTENT_EVENTS = ["scroll", "wheel", "pointerdown", "touchstart", "keydown"] as const;

/** Swagger UI loads once this much of the space kept for it is on screen. */
const VISIBLE_PX = 200;

/**
 * Swagger UI costs a phone seconds of script, so it loads after first paint, once the visitor
 * reaches for it: enough of it on screen, a scroll, a touch, a click, a key or a test token applied;
 * at once when they asked to try an operation (decision 026). Until then its space is kept, an
 * estimate from the number of operations, so that little below it moves when it comes.
 */
type Props = Omit<SwaggerPanelProps, "spec"> & {
  /** the OpenAPI document's address, fetched when Swagger UI loads rather than carried in the page */
  specUrl: string;
  operationCount: number;
};

function Status({ children }: { children: string }) {
  return (
    <p role="status" className="p-4 text-slate-700">
      {children}
    </p>
  );
}

export function SwaggerReference({ specUrl, operationCount, ...props }: Props) {
  const [wanted, setWanted] = useState(props.expandOperation !== undefined);
  const [spec, setSpec] = useState<Record<string, unknown> | "failed" | null>(null);
  const space = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!wanted) return;
    let current = true;
    // The document and Swagger UI's code load side by side.
    void import("./swagger-panel");
    fetch(specUrl)
      .then((response) => (response.ok ? response.json() : Promise.reject(new Error(String(response.status)))))
      .then((document: Record<string, unknown>) => current && setSpec(document))
      .catch(() => current && setSpec("failed"));
    return () => {
      current = false;
    };
  }, [wanted, specUrl]);

  useEffect(() => {
    const element = space.current;
    if (wanted || !element) return;
    const load = () => setWanted(true);
    const inView = new IntersectionObserver((entries) => entries.some((entry) => entry.isIntersecting) && load(), {
      rootMargin: `0px 0px -${VISIBLE_PX}px 0px`,
    });
    inView.observe(element);
    for (const name of INTENT_EVENTS) window.addEventListener(name, load, { once: true, passive: true });
    const stopWaitingForToken = onTestTokenApplied(load);
    return () => {
      inView.disconnect();
      for (const name of INTENT_EVENTS) window.removeEventListener(name, load);
      stopWaitingForToken();
    };
  }, [wanted]);

  return (
    <div ref={space} style={{ minHeight: `${10 + 3.25 * operationCount}rem` }}>
      {!wanted ? (
        <p className="p-4 text-slate-700">The interactive reference loads when you scroll to it.</p>
      ) : spec === "failed" ? (
        <Status>The interactive reference could not load its OpenAPI document; download it below.</Status>
      ) : spec ? (
        <SwaggerPanel spec={spec} {...props} />
      ) : (
        <Status>Loading the interactive reference…</Status>
      )}
    </div>
  );
}
