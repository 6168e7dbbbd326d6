import { NotFoundError } from '@cloud/sdk/browser';
import { useEffect, useState } from 'react';
import { useApi, useConsole, type ShownOnceSecret } from './context';
import { usePolling } from './polling';

// What the detail pages (a node, a validator) share: the thing read again every few seconds until
// it turns out to be gone, and the secret of one just created, shown once.

/**
 * The thing as last read (null until the first answer), read again every `intervalMs`; `gone`
 * once the API says there is no such thing of yours (then reading stops).
 */
export function usePolledDetail<Thing>(read: () => Promise<Thing>, intervalMs: number) {
  const { client } = useConsole();
  const { error, setError, run } = useApi();
  const [thing, setThing] = useState<Thing | null>(null);
  const [gone, setGone] = useState(false);
  usePolling(
    async () => {
      try {
        setThing(await read());
        setError(null);
      } catch (caught) {
        if (caught instanceof NotFoundError) setGone(true);
        else await run(() => Promise.reject(caught));
      }
    },
    intervalMs,
    client,
    !gone,
  );
  return { thing, setThing, gone, error };
}

/**
 * The password from the create answer of the node or validator `id`, when this page follows its
 * create; the console forgets it when the page is left.
 */
export function useShownOnce(id: string): ShownOnceSecret | undefined {
  const { shownOnce } = useConsole();
  const [created] = useState(() => shownOnce.get(id));
  useEffect(() => () => void shownOnce.delete(id), [id, shownOnce]);
  return created;
}
