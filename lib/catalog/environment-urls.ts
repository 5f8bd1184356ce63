import { config } from "../config";
import type { ApiKind } from "../generated/prisma/sqlite/enums";

/**
 * `{GATEWAY_PUBLIC_URL}/gw/{env}`, or `{PUBLIC_URL}/gw/{env}` (the portal's `publicUrl`)
 * when the gateway has no origin of its own: the gateway of one environment, as every
 * link, code sample and Swagger server of the portal names it.
 */
export function gatewayUrl(publicUrl: string, envSlug: string): string {
  return `${config().gatewayPublicUrl ?? publicUrl}/gw/${envSlug}`;
}

/** The gateway's own origin when GATEWAY_PUBLIC_URL names another than the portal's `publicUrl`; undefined when they share one. */
export function separateGatewayOrigin(publicUrl: string): string | undefined {
  const gateway = config().gatewayPublicUrl;
  if (gateway === undefined) return undefined;
  const origin = new URL(gateway).origin;
  return origin === new URL(publicUrl).origin ? undefined : origin;
}

export function tokenEndpointUrl(publicUrl: string, envSlug: string): string {
  return `${gatewayUrl(publicUrl, envSlug)}/oauth2/token`;
}

/** Token APIs live at the gateway itself; every other API under `{gateway}/{api}`. */
export function apiServerUrl(publicUrl: string, api: { slug: string; kind: ApiKind }, envSlug: string): string {
  const gateway = gatewayUrl(publicUrl, envSlug);
  return api.kind === "TOKEN" ? gateway : `${gateway}/${api.slug}`;
}

/**
 * The environment a page or spec shows: the requested one if the API offers it,
 * else (nothing requested) the first the API offers; undefined for an unknown one.
 */
export function selectEnvironment<E extends { slug: string }>(environments: E[], requested: string | undefined): E | undefined {
  if (requested === undefined || requested === "") return environments[0];
  return environments.find((env) => env.slug === requested);
}
