import { describe, expect, it } from "vitest";
import { featuredApis } from "./featured-apis";

const api = (name: string, isPublic: boolean) => ({ name, isPublic });

describe("featured APIs", () => {
  it("puts protected APIs first and keeps the catalog order within each group", () => {
    const apis = [api("A token", true), api("B inbox", false), api("C token", true), api("D billing", false)];
    expect(featuredApis(apis).map((each) => each.name)).toEqual(["B inbox", "D billing", "A token", "C token"]);
  });

  it("shows at most the limit", () => {
    const apis = Array.from({ length: 9 }, (_, index) => api(`API ${index}`, index % 2 === 0));
    expect(featuredApis(apis)).toHaveLength(6);
    expect(featuredApis(apis, 2).map((each) => each.name)).toEqual(["API 1", "API 3"]);
  });
});
