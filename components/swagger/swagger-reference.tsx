"use client";

import dynamic from "next/dynamic";
import type { SwaggerPanelProps } from "./swagger-panel";

// Swagger UI is large and browser-only: it loads on the Reference tab and nowhere else.
const SwaggerPanel = dynamic(() => import("./swagger-panel"), {
  ssr: false,
  loading: () => (
    <p role="status" className="text-slate-700">
      Loading the interactive reference…
    </p>
  ),
});

export function SwaggerReference(props: SwaggerPanelProps) {
  return <SwaggerPanel {...props} />;
}
