// Restarting services while one of their dependencies is away (issue 29's start-up experiments).
import { KILL_LOSS_WINDOW_MS } from '../experiments';
import type { ApiResult } from '../load';
import type { ServiceProcess } from '../platform';

export interface Restart {
  killedAt: number;
  /** When each service listened again, by name. */
  listenedAt: Record<string, number>;
  /** A lost event of a call a service answered just before it was SIGKILLed: the documented window. */
  inLossWindow(call: ApiResult): boolean;
}

/** SIGKILLs the services (as experiment 3 does, so their hosted nodes are adopted) and starts them at once. */
export async function killAndStart(services: readonly ServiceProcess[]): Promise<Restart> {
  const killedAt = Date.now();
  await Promise.all(services.map((service) => service.stop('SIGKILL')));
  for (const service of services) service.start();
  const listened = await Promise.all(services.map((service) => service.listening()));
  const listenedAt = Object.fromEntries(services.map((service, i) => [service.name, listened[i]!]));
  const names = new Set(services.map((service) => service.name));
  return { killedAt, listenedAt, inLossWindow: (call) => names.has(call.service) && call.at <= killedAt && killedAt - call.at <= KILL_LOSS_WINDOW_MS };
}

/** The load's calls to `service` answered between `from` and `to`. */
export function answersOf(calls: readonly ApiResult[], service: string, from: number, to: number): ApiResult[] {
  return calls.filter((call) => call.service === service && call.at >= from && call.at <= to);
}
