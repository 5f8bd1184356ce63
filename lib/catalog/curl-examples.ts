type OpenApiDocument = Record<string, unknown>;

/** Quotes a value for a POSIX shell. */
function shellQuote(value: string): string {
  return `'${value.replaceAll("'", `'\\''`)}'`;
}

/** `curl` for the client credentials grant, with HTTP Basic client authentication. */
export function tokenRequestCurl(tokenEndpoint: string, scopes: string[]): string {
  const lines = [
    `curl -X POST ${shellQuote(tokenEndpoint)}`,
    `  -u "$CLIENT_ID:$CLIENT_SECRET"`,
    "  -d grant_type=client_credentials",
    ...(scopes.length > 0 ? [`  --data-urlencode ${shellQuote(`scope=${scopes.join(" ")}`)}`] : []),
  ];
  return lines.join(" \\\n");
}

/** `curl` for one call with the access token from the token response in `$ACCESS_TOKEN`. */
export function firstCallCurl(serverUrl: string, path: string): string {
  return [`curl ${shellQuote(`${serverUrl}${path}`)}`, `  -H "Authorization: Bearer $ACCESS_TOKEN"`].join(" \\\n");
}

/** The first GET operation of a document that needs no path parameter: the natural first call. */
export function firstGetPath(document: OpenApiDocument): string | undefined {
  const paths = typeof document.paths === "object" && document.paths !== null ? Object.entries(document.paths) : [];
  const gets = paths.filter(([, item]) => typeof item === "object" && item !== null && "get" in item).map(([path]) => path);
  return gets.find((path) => !path.includes("{")) ?? gets[0];
}
