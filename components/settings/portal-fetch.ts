"use client";

export type FieldErrors = Record<string, string>;
export type PortalResult<T> = { ok: true; data: T } | { ok: false; message: string; fieldErrors: FieldErrors };

/** Sends JSON to a portal route and turns a problem+json answer into messages per field. */
export async function portalFetch<T>(url: string, method: string, body?: unknown): Promise<PortalResult<T>> {
  try {
    const response = await fetch(url, {
      method,
      headers: body === undefined ? {} : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const payload = await response.json().catch(() => ({}));
    if (response.ok) return { ok: true, data: payload as T };
    const fieldErrors: FieldErrors = {};
    // A field can fail several ways (each error of an OpenAPI document): one line each.
    for (const error of (payload.errors ?? []) as { field: string; message: string }[]) {
      fieldErrors[error.field] = fieldErrors[error.field] ? `${fieldErrors[error.field]}\n${error.message}` : error.message;
    }
    const message =
      Object.keys(fieldErrors).length > 0 ? "Check the fields marked below." : (payload.detail ?? payload.title ?? `Request failed (${response.status})`);
    return { ok: false, message, fieldErrors };
  } catch {
    return { ok: false, message: "The portal could not be reached. Try again.", fieldErrors: {} };
  }
}
