/** How many APIs the home page shows; with more, it links to the catalog for the rest. */
export const HOME_PAGE_API_LIMIT = 6;

/**
 * The APIs the home page shows: protected ones first, since they are the ones the three
 * steps (credentials, token, call) lead to, then public ones, each group in catalog order.
 */
export function featuredApis<T extends { isPublic: boolean }>(apis: T[], limit = HOME_PAGE_API_LIMIT): T[] {
  return [...apis.filter((api) => !api.isPublic), ...apis.filter((api) => api.isPublic)].slice(0, limit);
}
