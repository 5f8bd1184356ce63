import { useSyncExternalStore } from "react";

const subscribeToNothing = () => () => {};

/**
 * False in the server's HTML and until React has hydrated the page, then true: before that no
 * event handler is attached, so a control whose work is in one would do nothing when clicked,
 * and a form would submit natively (`SubmitButton`).
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribeToNothing,
    () => true,
    () => false,
  );
}
