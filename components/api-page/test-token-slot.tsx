import type { CatalogApi, CatalogEnvironment } from "@/lib/catalog/catalog-api";

/**
 * Where a signed-in user's "use a test token" control goes on the Reference tab.
 * Engineer D owns this body; the control hands the token to Swagger UI with
 * `window.dispatchEvent(new CustomEvent("gatehouse:authorize", { detail: { token } }))`.
 */
export async function TestTokenSlot(_props: { api: CatalogApi; env: CatalogEnvironment }) {
  return null;
}
