import { useSyncExternalStore } from "react";

const subscribeToNothing = () => () => {};

/**
 * False in the server's HTML and until React has hydrated the page, then true. A control whose
 * work is in an event handler stays disabled until then: clicked earlier, it would do nothing,
 * or submit its form natively and lose what the user typed.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribeToNothing,
    () => true,
    () => false,
  );
}
