/** Where a gateway request goes: the environment, then an API slug or a token-service path, then the rest. */
export type Target = { envSlug: string; apiSlug: string; remainder: string };

const WELL_KNOWN_METADATA = /^\/\.well-known\/oauth-authorization-server\/gw\/([^/]+)\/?$/;
const GATEWAY = /^\/gw\/([^/]+)(?:\/([^/]*))?(\/.*)?$/;

function decode(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

/** `/gw/{env}/{api}/...`, and RFC 8414's `/.well-known/oauth-authorization-server/gw/{env}`. */
export function parseTarget(pathname: string): Target | undefined {
  const wellKnown = WELL_KNOWN_METADATA.exec(pathname);
  if (wellKnown?.[1]) {
    const envSlug = decode(wellKnown[1]);
    return envSlug === undefined ? undefined : { envSlug, apiSlug: ".well-known", remainder: "/oauth-authorization-server" };
  }
  const match = GATEWAY.exec(pathname);
  if (!match?.[1]) return undefined;
  const envSlug = decode(match[1]);
  const apiSlug = decode(match[2] ?? "");
  if (envSlug === undefined || apiSlug === undefined) return undefined;
  return { envSlug, apiSlug, remainder: match[3] ?? "" };
}
