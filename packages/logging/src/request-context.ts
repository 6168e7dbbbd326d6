import { AsyncLocalStorage } from 'node:async_hooks';

/** What every log line written while serving a request carries. */
export interface RequestContext {
  requestId: string;
}

const storage = new AsyncLocalStorage<RequestContext>();

/** Runs `fn` with `context` visible to every log line written inside it, sync or async. */
export function runWithRequestContext<T>(context: RequestContext, fn: () => T): T {
  return storage.run(context, fn);
}

export function currentRequestContext(): RequestContext | undefined {
  return storage.getStore();
}

/**
 * Runs `fn` outside any request's context: for background work a request merely wakes (a
 * reconciler pass), whose log lines would otherwise carry that request's id.
 */
export function runOutsideRequestContext<T>(fn: () => T): T {
  return storage.exit(fn);
}
