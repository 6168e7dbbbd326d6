import type { PlatformClient } from '@cloud/sdk/browser';
import { useCallback, useEffect, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useApi, useConsole, type ShownOnceSecret } from './context';
import { usePolling } from './polling';

// What the list pages (nodes, validators) share: their list read again every few seconds, their
// create form's choices and call, and the sentence a detail page leaves for its list when it sends the person
// back (a delete under way).

/**
 * The list as last read (null until the first answer), read again every `intervalMs`; `put` shows
 * an item just created without waiting for the next read (in place of its older self, or last).
 */
export function usePolledList<Item>(read: () => Promise<Item[]>, intervalMs: number, keyOf: (item: Item) => string) {
  const { client } = useConsole();
  const { error, run } = useApi();
  const [items, setItems] = useState<Item[] | null>(null);
  usePolling(
    async () => {
      const result = await run(read);
      if (result.ok) setItems(result.value);
    },
    intervalMs,
    client,
  );
  const put = useCallback((item: Item) => setItems((current) => [...(current ?? []).filter((known) => keyOf(known) !== keyOf(item)), item]), [keyOf]);
  return { items, error, put };
}

/**
 * A list page's create call, run with `run` (the form's useApi, whose alert shows its error):
 * `busy` while it runs, then `created` (the form says it is starting), the password of its answer
 * (`secretOf`: in the create answer only) kept in memory for its page to show once, and the list
 * told with `onCreated`. `create` answers the thing created, or undefined when the call failed.
 */
export function useCreation<Thing>(
  run: ReturnType<typeof useApi>['run'],
  onCreated: (thing: Thing) => void,
  secretOf: (thing: Thing) => { id: string; secret: ShownOnceSecret } | undefined,
) {
  const { shownOnce } = useConsole();
  const [busy, setBusy] = useState(false);
  const [created, setCreated] = useState<Thing | null>(null);
  const create = async (call: () => Promise<Thing>): Promise<Thing | undefined> => {
    setBusy(true);
    setCreated(null);
    const result = await run(call);
    setBusy(false);
    if (!result.ok) return undefined;
    const kept = secretOf(result.value);
    if (kept) shownOnce.set(kept.id, kept.secret);
    setCreated(result.value);
    onCreated(result.value);
    return result.value;
  };
  return { busy, created, create };
}

/**
 * A create form's choices (chains, networks), read with `run` when the form shows (again for
 * another client), the key of the one chosen (the person's choice, else `initial` of the choices
 * read, by default the first; '' while there is none) and its setter, as useState gives them.
 */
export function useChoices<Choice>(
  run: ReturnType<typeof useApi>['run'],
  read: (client: PlatformClient) => Promise<Choice[]>,
  keyOf: (choice: Choice) => string,
  initial: (choices: Choice[]) => Choice | undefined = (choices) => choices[0],
) {
  const { client } = useConsole();
  const [choices, setChoices] = useState<Choice[]>([]);
  const [chosen, choose] = useState('');
  // `read`, `keyOf` and `initial` are the form's fixed rules: only another client reads the choices again.
  useEffect(() => {
    void run(() => read(client)).then((result) => {
      if (!result.ok) return;
      setChoices(result.value);
      const first = initial(result.value);
      choose((current) => current || (first === undefined ? '' : keyOf(first)));
    });
  }, [client, run]);
  return [choices, chosen, choose] as const;
}

/** Sends the person to the list page at `path`, which says `message` (see useMessageForList). */
export function useBackToList(): (path: string, message: string) => void {
  const navigate = useNavigate();
  return useCallback((path, message) => void navigate(path, { state: { message } }), [navigate]);
}

/** The sentence the page that sent the person here left for this list, if any. */
export function useMessageForList(): string | null {
  return (useLocation().state as { message?: string } | null)?.message ?? null;
}
