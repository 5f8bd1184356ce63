import NextLink from "next/link";
import type { ComponentProps } from "react";

/**
 * next/link without prefetching. Every page is rendered per request (for its CSP nonce), so a
 * prefetch fetches only the route's outline, and a click fetches the page anyway; the prefetches
 * of every link on screen cost the router main-thread work while the page loads (decision 035).
 */
export function Link(props: ComponentProps<typeof NextLink>) {
  return <NextLink prefetch={false} {...props} />;
}
