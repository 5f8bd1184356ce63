// The request-validation figure of the proxy workload: a 1 KB JSON POST through an API whose
// policy is requestValidation `enforce`, beside the same POST through the API without it,
// both on the gateway-only process in the same turns (target: at least 0.85x).
import { send } from "./http";
import type { Server } from "./processes";

/** The API behind request validation `enforce`, on the same upstream as the others. */
export const VALIDATED_PROXY_API = "bench-validated";

/** The document the validated API checks each POST against: a `$ref`'d object of typed, bounded fields. */
export const VALIDATED_DOCUMENT = JSON.stringify({
  openapi: "3.1.0",
  info: { title: "Bench validated", version: "1.0.0" },
  paths: {
    "/items": {
      post: {
        requestBody: { required: true, content: { "application/json": { schema: { $ref: "#/components/schemas/NewItem" } } } },
        responses: { "200": { description: "The upstream's fixed body." } },
      },
    },
  },
  components: {
    schemas: {
      NewItem: {
        type: "object",
        required: ["name", "price", "tags", "padding"],
        additionalProperties: false,
        properties: {
          name: { type: "string", minLength: 1, maxLength: 100 },
          price: { type: "number", minimum: 0 },
          tags: { type: "array", maxItems: 20, items: { type: "string", maxLength: 20 } },
          padding: { type: "string" },
        },
      },
    },
  },
});

const base = { name: "bench item", price: 12.5, tags: ["red", "blue", "green", "small", "sale"], padding: "" };

/** The POST's body: an item the document accepts, padded to 1 KB. */
export const JSON_POST_BODY = JSON.stringify({ ...base, padding: "x".repeat(1024 - JSON.stringify(base).length) });

/** The figure measures validation that passes: the body goes through, and one the schema refuses answers 400. */
export async function checkValidated(input: { server: Server; token: string }): Promise<void> {
  const url = `${input.server.origin}/gw/sso-qa/${VALIDATED_PROXY_API}/items`;
  const headers = { authorization: `Bearer ${input.token}`, "content-type": "application/json" };
  const valid = await send(url, { method: "POST", headers, body: JSON_POST_BODY });
  if (valid.status !== 200) throw new Error(`the validated API answered a valid POST with ${valid.status} ${valid.body.slice(0, 300)}`);
  const invalid = await send(url, { method: "POST", headers, body: JSON.stringify({ ...base, price: -1 }) });
  if (invalid.status !== 400) throw new Error(`the validated API answered an invalid POST with ${invalid.status}, not 400`);
  process.stderr.write("the validated API forwards a valid 1 KB POST and refuses an invalid one with 400\n");
}
