"use client";

import "./apidom-registrations";
import { useEffect, useMemo, useRef } from "react";
import SwaggerUI from "swagger-ui-react";
import "swagger-ui-react/swagger-ui.css";
import "./swagger-overrides.css";
import { problemAdvicePlugin, singleServerPlugin } from "./plugins";

export type SwaggerPanelProps = {
  spec: Record<string, unknown>;
  serverUrl: string;
  /** the spec's bearer security scheme; absent for public APIs, which show no Authorize control */
  bearerScheme?: string;
};

/** The parts of Swagger UI's system this component drives. */
type SwaggerSystem = {
  preauthorizeApiKey(scheme: string, value: string): void;
  authActions: { persistAuthorizationIfNeeded(): void };
};

export const AUTHORIZE_EVENT = "gatehouse:authorize";

/**
 * Swagger UI renders enum parameters as <select>s without a label; name each
 * after its parameter so screen readers can tell them apart.
 */
function labelParameterControls(root: HTMLElement) {
  for (const row of root.querySelectorAll<HTMLElement>("tr[data-param-name]")) {
    const label = `${row.dataset.paramName} (${row.dataset.paramIn ?? "parameter"})`;
    for (const control of row.querySelectorAll("select:not([aria-label]), input:not([aria-label])")) {
      control.setAttribute("aria-label", label);
    }
  }
}

export default function SwaggerPanel({ spec, serverUrl, bearerScheme }: SwaggerPanelProps) {
  const container = useRef<HTMLDivElement>(null);
  const system = useRef<SwaggerSystem | null>(null);
  const waitingToken = useRef<string | null>(null);
  const plugins = useMemo(() => [() => singleServerPlugin(serverUrl), problemAdvicePlugin], [serverUrl]);

  useEffect(() => {
    if (!bearerScheme) return;
    const scheme = bearerScheme;
    function authorize(token: string) {
      if (!system.current) {
        waitingToken.current = token;
        return;
      }
      system.current.preauthorizeApiKey(scheme, token);
      system.current.authActions.persistAuthorizationIfNeeded();
    }
    function onAuthorize(event: Event) {
      const token = (event as CustomEvent<{ token?: unknown }>).detail?.token;
      if (typeof token === "string" && token !== "") authorize(token);
    }
    window.addEventListener(AUTHORIZE_EVENT, onAuthorize);
    return () => window.removeEventListener(AUTHORIZE_EVENT, onAuthorize);
  }, [bearerScheme]);

  useEffect(() => {
    const root = container.current;
    if (!root) return;
    const observer = new MutationObserver(() => labelParameterControls(root));
    observer.observe(root, { childList: true, subtree: true });
    return () => observer.disconnect();
  }, []);

  return (
    <div ref={container} className="gatehouse-swagger min-w-0 overflow-x-auto rounded-lg border border-slate-200 bg-white">
      <SwaggerUI
        spec={spec}
        plugins={plugins}
        persistAuthorization
        tryItOutEnabled
        displayRequestDuration
        docExpansion="list"
        defaultModelsExpandDepth={0}
        onComplete={(instance) => {
          system.current = instance as unknown as SwaggerSystem;
          if (waitingToken.current && bearerScheme) {
            system.current.preauthorizeApiKey(bearerScheme, waitingToken.current);
            system.current.authActions.persistAuthorizationIfNeeded();
            waitingToken.current = null;
          }
        }}
      />
    </div>
  );
}
