import { describe, expect, it } from "vitest";
import { jsonSyntaxError } from "./json-syntax";

describe("jsonSyntaxError", () => {
  it("finds nothing wrong in JSON", () => {
    expect(jsonSyntaxError('{"apis": [{"slug": "orders", "n": -1.5e3, "ok": true, "x": null, "s": "a\\"\\u00e9"}], "e": []}\n')).toBeUndefined();
  });

  it.each([
    ['{\n  "apis": [],\n  "trust": \n}', { line: 4, column: 1, message: 'expected a value, found "}"' }],
    ['{\n  "apis": [],\n}', { line: 3, column: 1, message: 'expected a property name in double quotes, found "}"' }],
    ['{"apis" []}', { line: 1, column: 9, message: 'expected ":", found "["' }],
    ['{"apis": [] "trust": []}', { line: 1, column: 13, message: 'expected "," or "}", found "\\""' }],
    ['{"apis": [1, 2', { line: 1, column: 15, message: 'expected "," or "]", found the end of the file' }],
    ['{"slug": "ord', { line: 1, column: 14, message: 'expected a closing ", found the end of the file' }],
    ["apis: []", { line: 1, column: 1, message: 'expected a value, found "a"' }],
    ["{} {}", { line: 1, column: 4, message: 'expected the end of the file, found "{"' }],
    ['{"a": "\\x"}', { line: 1, column: 8, message: "a string has an invalid escape" }],
  ])("places the first mistake of %j", (text, error) => {
    expect(jsonSyntaxError(text)).toEqual(error);
  });
});
