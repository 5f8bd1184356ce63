/** The name of a document's HTTP bearer security scheme, if it declares one. */
export function bearerSchemeName(document: Record<string, unknown>): string | undefined {
  const components = document.components as { securitySchemes?: Record<string, { type?: unknown; scheme?: unknown }> } | undefined;
  const schemes = Object.entries(components?.securitySchemes ?? {});
  return schemes.find(([, scheme]) => scheme?.type === "http" && String(scheme.scheme).toLowerCase() === "bearer")?.[0];
}
