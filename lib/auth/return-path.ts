/** Only same-site paths: `//evil.example` and absolute URLs fall back to Settings. */
export function safeReturnPath(value: unknown): string {
  if (typeof value !== "string" || !value.startsWith("/") || value.startsWith("//") || value.startsWith("/\\")) return "/settings";
  return value;
}
