import { accessSync, constants, statSync } from "node:fs";
import { extname, resolve } from "node:path";
import { z } from "zod";

/** The image files a logo or favicon may be, by extension, with the type each is served as. */
const IMAGE_TYPES: Record<string, string> = {
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
  ".avif": "image/avif",
  ".ico": "image/x-icon",
};

/** A logo or favicon: a URL the browser loads itself, or a file the portal serves. */
export type BrandImage = { kind: "url"; url: string } | { kind: "file"; path: string; contentType: string };

function readableFile(path: string): boolean {
  try {
    accessSync(path, constants.R_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** `PORTAL_LOGO` and `PORTAL_FAVICON`: an http(s) URL, or the path of a readable image file. */
export const brandImageSchema = z.string().transform((value, ctx): BrandImage => {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) {
    if (/^https?:\/\//i.test(value) && URL.canParse(value)) return { kind: "url", url: value };
    ctx.addIssue({ code: "custom", message: "must be an http(s) URL or the path of an image file" });
    return z.NEVER;
  }
  const path = resolve(/*turbopackIgnore: true*/ value);
  const contentType = IMAGE_TYPES[extname(path).toLowerCase()];
  if (!contentType) {
    ctx.addIssue({ code: "custom", message: `must be an http(s) URL or an image file (${Object.keys(IMAGE_TYPES).join(", ")})` });
    return z.NEVER;
  }
  if (!readableFile(path)) {
    ctx.addIssue({ code: "custom", message: `cannot read the file ${path}` });
    return z.NEVER;
  }
  return { kind: "file", path, contentType };
});

/** The origin a URL image loads from, which the portal's CSP must allow. */
export function brandImageOrigin(image: BrandImage | undefined): string | undefined {
  return image?.kind === "url" ? new URL(image.url).origin : undefined;
}
