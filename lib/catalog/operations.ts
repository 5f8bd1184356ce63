type OpenApiDocument = Record<string, unknown>;

export type Operation = {
  method: string;
  path: string;
  summary: string;
  operationId?: string;
  /** the first tag, which groups the operation in Swagger UI ("default" when untagged, as Swagger UI does) */
  tag: string;
  /** the JSON request body's first example, when the operation declares one */
  bodyExample?: unknown;
};

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;

function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

function jsonBodyExample(operation: Record<string, unknown>): unknown {
  const media = record(record(record(operation.requestBody)?.content)?.["application/json"]);
  if (!media) return undefined;
  if (media.example !== undefined) return media.example;
  const first = Object.values(record(media.examples) ?? {})[0];
  return record(first)?.value;
}

/** Every operation of a document, in the document's order. */
export function listOperations(document: OpenApiDocument): Operation[] {
  return Object.entries(record(document.paths) ?? {}).flatMap(([path, item]) =>
    METHODS.flatMap((method) => {
      const operation = record(record(item)?.[method]);
      if (!operation) return [];
      const summary = typeof operation.summary === "string" ? operation.summary : "";
      const operationId = typeof operation.operationId === "string" ? operation.operationId : undefined;
      const tag = Array.isArray(operation.tags) && typeof operation.tags[0] === "string" ? operation.tags[0] : "default";
      return [{ method: method.toUpperCase(), path, summary, operationId, tag, bodyExample: jsonBodyExample(operation) }];
    }),
  );
}

/** The first GET operation that needs no path parameter (else the first GET): the natural first call. */
export function firstGetOperation(document: OpenApiDocument): Operation | undefined {
  const gets = listOperations(document).filter((operation) => operation.method === "GET");
  return gets.find((operation) => !operation.path.includes("{")) ?? gets[0];
}
