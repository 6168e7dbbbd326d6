import { useEffect, useRef } from 'react';

/**
 * Calls `read` now and then every `intervalMs` after each call ends (never two at once), while
 * the component is shown and `enabled`; a change of `key` starts over.
 */
export function usePolling(read: () => Promise<unknown>, intervalMs: number, key: unknown, enabled = true): void {
  const latest = useRef(read);
  latest.current = read;
  useEffect(() => {
    if (!enabled) return;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const tick = async () => {
      await latest.current().catch(() => undefined);
      if (!stopped) timer = setTimeout(() => void tick(), intervalMs);
    };
    void tick();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [intervalMs, key, enabled]);
}
