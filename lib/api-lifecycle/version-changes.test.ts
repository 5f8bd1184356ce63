import { describe, expect, it } from "vitest";
import { notificationsDocument } from "../notifications/openapi";
import { versionSteps } from "./version-changes";

const v1 = notificationsDocument({ gatewayUrl: "https://gw.example/gw/sandbox" }) as { paths: Record<string, Record<string, unknown>> };
const v2 = structuredClone(v1);
delete v2.paths["/v1/notifications/{id}"]!.get;
const v3 = structuredClone(v2);
v3.paths["/v1/notifications"]!.post = { summary: "Send one", responses: { 201: { description: "Created" } } };

describe("versionSteps", () => {
  it("steps through the versions in numeric order, from stored JSON text or built-in objects", () => {
    const steps = versionSteps([
      { version: "v10", openapiDocument: JSON.stringify(v3) },
      { version: "v1", openapiDocument: v1 },
      { version: "v2", openapiDocument: JSON.stringify(v2) },
    ]);
    expect(steps.map(({ from, to, diff }) => [from, to, diff?.breaking])).toEqual([
      ["v1", "v2", true],
      ["v2", "v10", false],
    ]);
  });

  it("names a step it cannot compare", () => {
    expect(
      versionSteps([
        { version: "v1", openapiDocument: "not json" },
        { version: "v2", openapiDocument: null },
      ]),
    ).toEqual([{ from: "v1", to: "v2", diff: null }]);
  });
});
