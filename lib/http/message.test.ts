import { describe, expect, it } from "vitest";
import { type BodySink, toFetchResponse } from "./message";

describe("toFetchResponse", () => {
  it("streams a body written over time into the Fetch response, with repeated fields kept apart", async () => {
    let sink: BodySink | undefined;
    const response = toFetchResponse({
      status: 200,
      headers: { "content-type": "text/plain", "set-cookie": ["a=1", "b=2"] },
      body: { pipeTo: (given) => void (sink = given) },
    });
    expect(response.headers.getSetCookie()).toEqual(["a=1", "b=2"]);
    const text = response.text();
    sink!.write(Buffer.from("first "));
    await new Promise((resolve) => setTimeout(resolve, 10));
    sink!.end(Buffer.from("second"));
    expect(await text).toBe("first second");
  });

  it("cuts the Fetch body off when the stream fails", async () => {
    const response = toFetchResponse({ status: 200, headers: {}, body: { pipeTo: (sink) => sink.destroy(new Error("upstream reset")) } });
    await expect(response.text()).rejects.toThrow();
  });
});
