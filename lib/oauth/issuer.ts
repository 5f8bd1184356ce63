/** RFC 9068 names: the environment's gateway is both the issuer and, with a trailing slash, the audience. */
export function issuerFor(publicUrl: string, envSlug: string): string {
  return `${publicUrl}/gw/${envSlug}`;
}

/** The portal's page where a developer lets an agent act as one of their credentials of the environment. */
export function authorizationEndpointFor(publicUrl: string, envSlug: string): string {
  return `${publicUrl}/oauth/${envSlug}/authorize`;
}

export function audienceFor(publicUrl: string, envSlug: string): string {
  return `${issuerFor(publicUrl, envSlug)}/`;
}

/** An MCP server of the environment, `{publicUrl}/mcp/{env}/{api}[/{version}]`: an agent's token's audience (RFC 8707). */
export function isMcpResourceOf(url: string, publicUrl: string, envSlug: string): boolean {
  const prefix = `${publicUrl}/mcp/${envSlug}/`;
  return url.startsWith(prefix) && /^[^/?#]+(\/[^/?#]+)?$/.test(url.slice(prefix.length));
}
