import { useSyncExternalStore } from 'react';

// The toast host (@mantine/notifications' <Notifications>, with its transitions) mounts with the first toast rather
// than with the first screen: no page needs it to paint, and loading it then would be work between the first paint
// and the page being usable. `notifications.show` queues in its store until the host is there.
let wanted = false;
const listeners = new Set<() => void>();

/** Asks for the toast host; called by every toast (components/notify.ts) before it is shown. */
export function requestToastHost(): void {
  if (wanted) return;
  wanted = true;
  listeners.forEach((listener) => listener());
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** True once a toast was asked for. */
export function useToastHostWanted(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => wanted,
    () => false,
  );
}
