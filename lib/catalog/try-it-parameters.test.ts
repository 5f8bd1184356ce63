import { describe, expect, it } from "vitest";
import { notificationsDocument } from "../notifications/openapi";
import { withoutOptionalParameterExamples } from "./try-it-parameters";

describe("Try it out parameters", () => {
  it("moves optional parameters' examples into their description and keeps required ones", () => {
    const spec = {
      paths: {
        "/things/{id}": {
          get: {
            parameters: [
              { name: "id", in: "path", required: true, schema: { type: "string", example: "ntf_1" } },
              { name: "status", in: "query", required: false, description: "Filter by status.", schema: { type: "string", example: "unread,read" } },
              { name: "since", in: "query", example: "2022-12-01T00:00:00Z", schema: { type: "string" } },
            ],
          },
        },
      },
    };
    const parameters = (withoutOptionalParameterExamples(spec).paths["/things/{id}"] as (typeof spec.paths)["/things/{id}"]).get.parameters;
    expect(parameters[0]).toEqual(spec.paths["/things/{id}"].get.parameters[0]);
    expect(parameters[1]).toEqual({
      name: "status",
      in: "query",
      required: false,
      description: "Filter by status.\n\nExample: `unread,read`",
      schema: { type: "string" },
    });
    expect(parameters[2]).toEqual({ name: "since", in: "query", description: "Example: `2022-12-01T00:00:00Z`", schema: { type: "string" } });
  });

  it("leaves no example on any optional parameter of the Notifications API", () => {
    const document = notificationsDocument({ gatewayUrl: "https://gateway.example.com/gw/sso-qa/notifications" });
    expect(JSON.stringify(document)).toContain('"example":"unread,read"');
    const shown = withoutOptionalParameterExamples(document) as { paths: Record<string, Record<string, { parameters?: Record<string, unknown>[] }>> };
    const optional = Object.values(shown.paths)
      .flatMap((item) => Object.values(item).flatMap((operation) => operation.parameters ?? []))
      .filter((p) => p.required !== true);
    expect(optional.length).toBeGreaterThan(0);
    for (const parameter of optional) expect(JSON.stringify(parameter)).not.toContain('"example"');
  });
});
