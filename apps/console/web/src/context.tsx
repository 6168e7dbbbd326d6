import { PlatformClient, type Session } from '@cloud/sdk/browser';
import { createContext, useCallback, useContext, useMemo, useRef, useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import type { ConsoleSettings } from './config';
import { describeError, endsSession, type ErrorContext, type ShownError } from './errors';
import { loadSession, saveSession } from './session-store';

/** Node passwords and client secrets from a create answer: kept in memory only, shown once. */
export interface ShownOnceSecret {
  user: string;
  password: string;
}

interface ConsoleState {
  client: PlatformClient;
  config: ConsoleSettings;
  /** Forgets the session (logout, or an expired one) and goes to the login page with `message`. */
  endSession(message: string): void;
  /** Secrets of just-created nodes and validators by id, until their page has shown them. */
  shownOnce: Map<string, ShownOnceSecret>;
  /** Why the last session ended, for the login page to say (until the next login). */
  endedBecause: string | null;
}

const ConsoleContext = createContext<ConsoleState | undefined>(undefined);

function newClient(config: ConsoleSettings, session: Session | undefined): PlatformClient {
  return new PlatformClient({
    accountsUrl: config.accountsUrl,
    nodesUrl: config.nodesUrl,
    stakingUrl: config.stakingUrl,
    streamsUrl: config.streamsUrl,
    session,
    onSessionChange: saveSession,
    timeoutMs: 30_000,
    // Every GET the console makes is its own read, to show or refresh a page (the nodes list every
    // 3 s, a node's usage and logs): marked, so the Events page can show what the person did.
    background: (request) => request.method === 'GET',
  });
}

export function ConsoleProvider({ config, children }: { config: ConsoleSettings; children: ReactNode }) {
  const navigate = useNavigate();
  const [client, setClient] = useState(() => newClient(config, loadSession()));
  const shownOnce = useRef(new Map<string, ShownOnceSecret>()).current;
  // Kept here rather than in the navigation's state: the guard of the logged-in screens also
  // sends a session-less client to /login, and its navigation may come last.
  const [endedBecause, setEndedBecause] = useState<string | null>(null);
  const endSession = useCallback(
    (message: string) => {
      saveSession(undefined);
      shownOnce.clear();
      setEndedBecause(message);
      setClient(newClient(config, undefined));
      void navigate('/login', { replace: true });
    },
    [config, navigate, shownOnce],
  );
  const value = useMemo(() => ({ client, config, endSession, shownOnce, endedBecause }), [client, config, endSession, shownOnce, endedBecause]);
  return <ConsoleContext.Provider value={value}>{children}</ConsoleContext.Provider>;
}

export function useConsole(): ConsoleState {
  const state = useContext(ConsoleContext);
  if (!state) throw new Error('useConsole outside ConsoleProvider');
  return state;
}

export const SESSION_ENDED = 'Your session has expired or was ended. Log in again to go on.';

/**
 * Runs API calls for a screen: an error becomes `error` (shown in the screen's alert), and one
 * that means the session is over sends the person back to the login page. `context` picks the
 * screen's own words for its errors (a broken verification link).
 */
export function useApi(context?: ErrorContext) {
  const { endSession } = useConsole();
  const [error, setError] = useState<ShownError | null>(null);
  const run = useCallback(
    async <T,>(call: () => Promise<T>): Promise<{ ok: true; value: T } | { ok: false }> => {
      try {
        const value = await call();
        setError(null);
        return { ok: true, value };
      } catch (caught) {
        if (endsSession(caught)) endSession(SESSION_ENDED);
        else setError(describeError(caught, context));
        return { ok: false };
      }
    },
    [endSession, context],
  );
  return { error, setError, run };
}
