import Ajv2020 from "ajv/dist/2020.js";
import type AjvCore from "ajv/dist/core";
import AjvDraft04 from "ajv-draft-04";
import addFormats from "ajv-formats";

/** The key the document is added under, which the schemas' own `#/...` references resolve against. */
const DOCUMENT_KEY = "openapi";

const INT32 = 2 ** 31;

/**
 * The formats OpenAPI adds to JSON Schema's. `int64` is not bounded: JSON numbers past 2^53
 * have already lost their digits. `byte`, `binary` and `password` describe text, not a shape.
 */
function addOpenApiFormats(ajv: AjvCore): void {
  ajv.addFormat("int32", { type: "number", validate: (value: number) => Number.isInteger(value) && value >= -INT32 && value < INT32 });
  ajv.addFormat("int64", { type: "number", validate: (value: number) => Number.isInteger(value) });
  ajv.addFormat("float", { type: "number", validate: () => true });
  ajv.addFormat("double", { type: "number", validate: () => true });
  ajv.addFormat("byte", /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/);
  ajv.addFormat("binary", true);
  ajv.addFormat("password", true);
}

/**
 * An Ajv instance holding the document, for OpenAPI 3.1 (JSON Schema 2020-12) or 3.0 (its
 * schema object is draft 04's, with `nullable`, which Ajv reads with a `type`). OpenAPI's own
 * keywords (`example`, `xml`, `discriminator`…) are annotations here, so strict mode is off.
 * `coerce` reads parameters, whose values arrive as text, as the types their schemas name.
 */
export function createDocumentAjv(document: Record<string, unknown>, options: { coerce: boolean }): AjvCore {
  const settings = { strict: false, allErrors: true, validateSchema: false, logger: false, coerceTypes: options.coerce } as const;
  const ajv: AjvCore = String(document.openapi).startsWith("3.0") ? new AjvDraft04(settings) : new Ajv2020(settings);
  addFormats(ajv);
  addOpenApiFormats(ajv);
  ajv.addSchema(document, DOCUMENT_KEY);
  return ajv;
}

/** A schema that is the document's value at a JSON pointer (`/components/schemas/Item`). */
export function schemaRef(pointer: string): { $ref: string } {
  return { $ref: `${DOCUMENT_KEY}#${pointer.split("/").map(encodeURIComponent).join("/")}` };
}
