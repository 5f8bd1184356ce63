import { parse } from "yaml";
import { z } from "zod";

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;

const operationSchema = z.looseObject({ responses: z.record(z.string(), z.unknown()).optional() });
const pathItemSchema = z.looseObject(Object.fromEntries(METHODS.map((method) => [method, operationSchema.optional()])));

/** The shape of an OpenAPI 3.0/3.1 document that the portal relies on (Swagger UI and the catalog). */
const openApiSchema = z.looseObject({
  openapi: z.string().regex(/^3\.[01]\.\d+$/, "must be 3.0.x or 3.1.x"),
  info: z.looseObject({ title: z.string().min(1), version: z.string().min(1) }),
  paths: z.record(z.string().regex(/^\//, "path keys start with /"), pathItemSchema).optional(),
  webhooks: z.record(z.string(), z.unknown()).optional(),
  components: z.record(z.string(), z.unknown()).optional(),
}).refine((document) => document.paths !== undefined || document.webhooks !== undefined || document.components !== undefined, {
  message: "needs paths, webhooks or components",
});

/**
 * Parses an uploaded or pasted document (JSON or YAML) and checks it is an
 * OpenAPI 3.x document; the message names where it went wrong.
 */
export function checkOpenApiDocument(text: string): { ok: true; json: string } | { ok: false; message: string } {
  let value: unknown;
  try {
    value = parse(text);
  } catch (error) {
    return { ok: false, message: `is neither JSON nor YAML: ${(error as Error).message.split("\n")[0]}` };
  }
  const result = openApiSchema.safeParse(value);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    return { ok: false, message: `is not an OpenAPI 3 document: ${issue.path.join(".") || "(root)"} ${issue.message}` };
  }
  return { ok: true, json: JSON.stringify(result.data) };
}
