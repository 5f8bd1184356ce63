import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { Readable } from "node:stream";
import type { Brand } from "../config";
import { problem, problemResponse } from "../http/problem";
import { requestIdFrom } from "../http/request-id";
import { gatehouseMarkSvg } from "./gatehouse-mark";

export type BrandAsset = "logo" | "favicon";

/** An hour: a changed logo file shows within one, without a request per page view. */
const CACHE_CONTROL = "public, max-age=3600";

/** The image bytes streamed from the file, so a large logo is never held in memory. */
async function fileResponse(path: string, contentType: string): Promise<Response | undefined> {
  const size = await stat(path).then(
    (found) => (found.isFile() ? found.size : undefined),
    () => undefined,
  );
  if (size === undefined) return undefined;
  const body = Readable.toWeb(createReadStream(path)) as ReadableStream<Uint8Array>;
  return new Response(body, { headers: { "content-type": contentType, "content-length": String(size), "cache-control": CACHE_CONTROL } });
}

/**
 * `GET /branding/logo` and `/branding/favicon`: the operator's image file, a redirect to
 * their image URL, or, for a favicon nobody set, Gatehouse's mark in the accent colour.
 */
export async function brandAssetResponse(brand: Brand, asset: BrandAsset, request: Request): Promise<Response> {
  const image = brand[asset];
  if (image?.kind === "url") return Response.redirect(image.url, 307);
  if (image?.kind === "file") {
    const response = await fileResponse(image.path, image.contentType);
    if (response) return response;
  } else if (asset === "favicon") {
    return new Response(gatehouseMarkSvg(brand.accent), { headers: { "content-type": "image/svg+xml", "cache-control": CACHE_CONTROL } });
  }
  return problemResponse(problem("not-found"), { instance: new URL(request.url).pathname, requestId: requestIdFrom(request.headers) });
}

/** Where pages point for the asset: the operator's URL as it is, anything else through the portal. */
export function brandAssetHref(brand: Brand, asset: BrandAsset): string | undefined {
  const image = brand[asset];
  if (image?.kind === "url") return image.url;
  return image || asset === "favicon" ? `/branding/${asset}` : undefined;
}
