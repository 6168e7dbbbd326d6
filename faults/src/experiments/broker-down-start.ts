// Issue 29, item 9: nodes and staking started while the broker was away answered every call 503
// NotReady until it was back (their revocation snapshot comes over the bus), although a broker
// outage while running only degrades them. Here the broker relay is cut, nodes and staking are
// SIGKILLed and started while it is away, and it is restored ~12 s after the cut, under the load.
import { isApiFailure, seconds, underLoad, type Context, type ExperimentResult } from '../experiments';
import { sleep } from '../shell';
import { answersOf, killAndStart } from './restart';

const OUTAGE_MS = 12_000;

export function brokerDownStart(ctx: Context): Promise<ExperimentResult> {
  const { nodes, staking } = ctx.platform.services;
  const bound = ctx.settings.readyBoundSeconds * 1000;
  return underLoad(ctx, 'broker-down-start', `nodes and staking started while RabbitMQ is away (${OUTAGE_MS / 1000} s, relay cut)`, async () => {
    const from = Date.now();
    await ctx.brokerRelay.cut();
    const restart = await killAndStart([nodes, staking]);
    // Ready (degraded) within the usual bound of listening, the broker still away.
    const readyAt: Record<string, number | undefined> = {};
    await Promise.all(
      [nodes, staking].map(async (service) => {
        const deadline = restart.listenedAt[service.name]! + bound;
        while (Date.now() <= deadline && readyAt[service.name] === undefined) {
          if (await service.ready()) readyAt[service.name] = Date.now();
          else await sleep(50);
        }
      }),
    );
    await sleep(Math.max(0, from + OUTAGE_MS - Date.now()));
    await ctx.brokerRelay.open();
    const endedAt = Date.now();
    return {
      endedAt,
      inLossWindow: restart.inLossWindow,
      check(load) {
        const failures: string[] = [];
        const notes = [
          `outage ${seconds(endedAt - from)}; nodes and staking listening ${seconds(Math.max(...Object.values(restart.listenedAt)) - restart.killedAt)} after their kill`,
        ];
        for (const service of ['nodes', 'staking']) {
          const ready = readyAt[service];
          if (ready === undefined) failures.push(`${service} not ready within ${bound / 1000} s of listening, the broker away`);
          // From its readiness (a load balancer sends nothing before) to the broker's return, every call answered.
          const during = answersOf(load.api, service, ready ?? restart.listenedAt[service]!, endedAt);
          const failed = during.filter((call) => isApiFailure(call.status)).length;
          if (failed > 0) failures.push(`${failed} of ${service}'s ${during.length} API calls failed (5xx or no answer) after it started, the broker away`);
          notes.push(
            `${service}: ready ${ready === undefined ? 'not within the bound' : `${seconds(ready - restart.listenedAt[service]!)} after listening`}; ${during.length} calls until the broker was back, ${during.filter((call) => call.status === 503).length} × 503`,
          );
        }
        return { failures, notes };
      },
    };
  });
}
