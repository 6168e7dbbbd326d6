// Issue 29, item 5: nodes and staking started while the accounts service was away answered every
// valid token 401 "token signed by an unknown key" for 30 s after it was back (their first key
// fetch failed and armed the 30 s refresh limit). Here accounts is SIGKILLed, nodes and staking are
// SIGKILLed and started while it is away, and accounts comes back ~5 s later, under the load.
import { isApiFailure, seconds, underLoad, type Context, type ExperimentResult } from '../experiments';
import { sleep } from '../shell';
import { answersOf, killAndStart } from './restart';

/** How long accounts stays away after nodes and staking listen again. */
const AWAY_MS = 5_000;

export function accountsDownStart(ctx: Context): Promise<ExperimentResult> {
  const { accounts, nodes, staking } = ctx.platform.services;
  return underLoad(ctx, 'accounts-down-start', `nodes and staking started while the accounts service is away (~${AWAY_MS / 1000} s)`, async () => {
    const from = Date.now();
    await accounts.stop('SIGKILL');
    const restart = await killAndStart([nodes, staking]);
    await sleep(AWAY_MS);
    accounts.start();
    const endedAt = await accounts.listening();
    return {
      endedAt,
      inLossWindow: (call) => restart.inLossWindow(call) || (call.service === 'accounts' && call.at <= from && from - call.at <= 1000),
      check(load, watch) {
        const failures: string[] = [];
        // Every token the load sends is valid: a 401 is a valid token refused.
        const refused = load.api.filter((call) => call.status === 401);
        if (refused.length > 0)
          failures.push(`${refused.length} API calls with a valid token answered 401 (${[...new Set(refused.map((call) => call.service))].join(', ')})`);
        const api500 = load.api.filter((call) => call.status === 500).length;
        if (api500 > 0) failures.push(`${api500} API answers were 500`);
        const bare503 = load.api.filter((call) => call.status === 503 && !call.retryAfter).length;
        if (bare503 > 0) failures.push(`${bare503} API 503 answers had no Retry-After`);
        // Once accounts is back, nodes and staking answer (readiness is bounded by underLoad).
        const afterBack = ['nodes', 'staking'].flatMap((service) =>
          answersOf(load.api, service, endedAt + ctx.settings.readyBoundSeconds * 1000, Number.POSITIVE_INFINITY),
        );
        const failedAfter = afterBack.filter((call) => isApiFailure(call.status) || call.status >= 400).length;
        if (failedAfter > 0)
          failures.push(`${failedAfter} nodes/staking API calls failed more than ${ctx.settings.readyBoundSeconds} s after the accounts service was back`);
        const away = (service: string) => answersOf(load.api, service, restart.listenedAt[service]!, endedAt);
        return {
          failures,
          notes: [
            `accounts away ${seconds(endedAt - from)}; nodes and staking listening ${seconds(Math.max(...Object.values(restart.listenedAt)) - restart.killedAt)} after their kill`,
            ...['nodes', 'staking'].map(
              (service) =>
                `${service} while accounts was away: ${away(service).length} calls, ${away(service).filter((call) => call.status === 503).length} × 503`,
            ),
            `/readyz not 200 during it: ${watch.unreadyDuring(from, endedAt).join(', ') || 'none'}`,
          ],
        };
      },
    };
  });
}
