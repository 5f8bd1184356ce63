/** Next's page search params: a repeated `?a=1&a=2` arrives as an array. */
export type SearchParams = Record<string, string | string[] | undefined>;

/** The first value of a query parameter, at most `maxLength` characters; a repeated one never reaches code expecting a string. */
export function firstParam(value: string | string[] | undefined, maxLength = 200): string | undefined {
  const first = Array.isArray(value) ? value[0] : value;
  return first === undefined ? undefined : first.slice(0, maxLength);
}
