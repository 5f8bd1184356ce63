/** What the published OpenAPI documents say about CORS, since they declare no Access-Control-* headers (.spectral.yaml). */
export const CORS_NOTE =
  "The gateway answers CORS only for the portal's own origin, so browsers on other origins cannot call it: call it from your server, or try it in the portal.";
