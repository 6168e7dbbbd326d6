import type { RequestHandler } from 'express';
import { collectDefaultMetrics, Gauge, Registry } from 'prom-client';
import type { DependencyReport } from './create-http-app';

export interface ApiMetricsOptions {
  /** The service's name, the `service` label of every metric (several share a process under `npm start`). */
  service: string;
  /** Other metrics the service serves with these (the bus's dead-letter counter). */
  registries?: readonly Registry[];
}

let processMetrics: Registry | undefined;

/**
 * The process's own figures (CPU, memory, event-loop delay, GC), collected once per process: the
 * services of `npm start` share the process, and each collector starts timers and observers.
 */
function processRegistry(): Registry {
  if (!processMetrics) {
    processMetrics = new Registry();
    collectDefaultMetrics({ register: processMetrics });
  }
  return processMetrics;
}

/**
 * `/metrics` of an API service (Prometheus text): whether each dependency answers (a broker that
 * is down leaves the API ready but degraded, decision 020, and this is where that shows), the
 * process's own figures, and the registries the service adds. Behind the gateway it is not
 * reachable from outside (no route leads to it); scrape the service's port.
 */
export function apiMetrics(options: ApiMetricsOptions, probe: () => Promise<DependencyReport>): RequestHandler {
  const registry = new Registry();
  registry.setDefaultLabels({ service: options.service });
  const dependencyUp = new Gauge({
    name: 'api_dependency_up',
    help: 'Whether a dependency of the API answers (1) or not (0): the database, the message bus, the token revocations',
    labelNames: ['dependency'],
    registers: [registry],
    collect: async () => {
      for (const [dependency, report] of Object.entries(await probe())) dependencyUp.set({ dependency }, report.up ? 1 : 0);
    },
  });
  // Read one after another rather than merged: a merged registry would drop the `service` label.
  const registries = [registry, processRegistry(), ...(options.registries ?? [])];
  return (_req, res, next) => {
    Promise.all(registries.map((each) => each.metrics()))
      .then((texts) => res.type(registry.contentType).send(texts.join('\n')))
      .catch(next);
  };
}
