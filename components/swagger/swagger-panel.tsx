"use client";

import "./apidom-registrations";
import { useEffect, useMemo, useRef } from "react";
import SwaggerUI from "swagger-ui-react";
import "swagger-ui-react/swagger-ui.css";
import "./swagger-overrides.css";
import { withoutOptionalParameterExamples } from "@/lib/catalog/try-it-parameters";
import { onReferenceAuthorize } from "./authorize-event";
import { problemAdvicePlugin, singleServerPlugin, withoutInfoPlugin } from "./plugins";

export type SwaggerPanelProps = {
  spec: Record<string, unknown>;
  serverUrl: string;
  /** the spec's bearer security scheme; absent for public APIs, which show no Authorize control */
  bearerScheme?: string;
  /** an operation to show expanded, ready to Execute */
  expandOperation?: { tag: string; operationId: string };
};

/** The parts of Swagger UI's system this component drives. */
type SwaggerSystem = {
  preauthorizeApiKey(scheme: string, value: string): void;
  authActions: { persistAuthorizationIfNeeded(): void };
  layoutActions: { show(isShownKey: string[], shown: boolean): void };
};

/** What an unlabelled form control of Swagger UI is about, from where it sits. */
function controlLabel(control: Element): string {
  const field = control.closest<HTMLElement>("tr[data-param-name], tr[data-property-name]");
  if (field) {
    const name = field.dataset.paramName ?? field.dataset.propertyName;
    return field.dataset.paramIn ? `${name} (${field.dataset.paramIn})` : `${name}`;
  }
  if (control.classList.contains("examples-select-element")) {
    const response = control.closest<HTMLElement>("tr[data-code]");
    return response ? `Example of the ${response.dataset.code} response` : "Request example";
  }
  return control.getAttribute("placeholder") || control.getAttribute("title") || "Value";
}

/**
 * Swagger UI renders enum parameters, form fields and example pickers as
 * controls without a label; name each after what it sets, for screen readers.
 * Its own `<main>` would be a second main landmark inside the portal's, so it
 * becomes a region. Tag and path labels come in anchors without a target (deep
 * links, off here): they are no links, and say so, for crawlers that count them.
 */
function labelControls(root: HTMLElement) {
  for (const main of root.querySelectorAll("main:not([role])")) {
    main.setAttribute("role", "region");
    main.setAttribute("aria-label", "Operations");
  }
  for (const label of root.querySelectorAll("a:not([href]):not([role])")) label.setAttribute("role", "none");
  for (const control of root.querySelectorAll("select:not([aria-label]), input:not([aria-label]):not([type=hidden])")) {
    if (control.id && root.querySelector(`label[for="${CSS.escape(control.id)}"]`)) continue;
    control.setAttribute("aria-label", controlLabel(control));
  }
}

/**
 * Try-it calls go to the gateway, which needs no portal cookies. Without
 * credentials the browser also never opens its own login dialog for the token
 * endpoint's `WWW-Authenticate: Basic` answers, which would block the call.
 */
function withoutCredentials<R extends { credentials?: RequestCredentials }>(request: R): R {
  request.credentials = "omit";
  return request;
}

export default function SwaggerPanel({ spec, serverUrl, bearerScheme, expandOperation }: SwaggerPanelProps) {
  const container = useRef<HTMLElement>(null);
  const system = useRef<SwaggerSystem | null>(null);
  const waitingToken = useRef<string | null>(null);
  const plugins = useMemo(() => [() => singleServerPlugin(serverUrl), problemAdvicePlugin, withoutInfoPlugin], [serverUrl]);
  const shownSpec = useMemo(() => withoutOptionalParameterExamples(spec), [spec]);

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
    return onReferenceAuthorize(authorize);
  }, [bearerScheme]);

  useEffect(() => {
    const root = container.current;
    if (!root) return;
    const observer = new MutationObserver(() => labelControls(root));
    observer.observe(root, { childList: true, subtree: true });
    return () => observer.disconnect();
  }, []);

  return (
    <section
      ref={container}
      aria-label="Interactive API reference"
      className="gatehouse-swagger min-w-0 overflow-x-auto rounded-lg border border-slate-200 bg-white"
    >
      <SwaggerUI
        spec={shownSpec}
        plugins={plugins}
        persistAuthorization
        requestInterceptor={withoutCredentials}
        tryItOutEnabled
        displayRequestDuration
        docExpansion="list"
        defaultModelsExpandDepth={0}
        onComplete={(instance) => {
          system.current = instance as unknown as SwaggerSystem;
          if (expandOperation) system.current.layoutActions.show(["operations", expandOperation.tag, expandOperation.operationId], true);
          if (waitingToken.current && bearerScheme) {
            system.current.preauthorizeApiKey(bearerScheme, waitingToken.current);
            system.current.authActions.persistAuthorizationIfNeeded();
            waitingToken.current = null;
          }
        }}
      />
    </section>
  );
}
