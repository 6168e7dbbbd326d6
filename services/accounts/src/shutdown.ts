/**
 * How the accounts service stops on SIGTERM (`src/main.ts`). Requests in flight get `drainMs` to
 * finish while new ones are answered 503: sign-ups and logins wait for bcrypt in the thread pool,
 * and a burst of them takes seconds of CPU (60 sign-ups at cost 12 are about 10 s on 2 cores). The
 * process exits within `exitBoundMs`, which the deployment files' grace period (30 s:
 * terminationGracePeriodSeconds in deploy/kubernetes/base/accounts.yaml, stop_grace_period in
 * docker-compose.yml) must exceed; deploy/test checks it.
 */
export const ACCOUNTS_SHUTDOWN = { drainMs: 20_000, exitBoundMs: 25_000 } as const;
