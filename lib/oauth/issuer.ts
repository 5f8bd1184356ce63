/** RFC 9068 names: the environment's gateway is both the issuer and, with a trailing slash, the audience. */
export function issuerFor(publicUrl: string, envSlug: string): string {
  return `${publicUrl}/gw/${envSlug}`;
}

export function audienceFor(publicUrl: string, envSlug: string): string {
  return `${issuerFor(publicUrl, envSlug)}/`;
}
