import type { Logger } from '@cloud/logging';
import type { Bus } from './bus';
import { InProcessBus } from './in-process-bus';
import { RabbitMqBus } from './rabbitmq-bus';
import { SharedBusView } from './shared-bus-view';

export interface BusSettings {
  AMQP_URL?: string;
  AMQP_PREFIX: string;
}

/**
 * The bus the configuration asks for: RabbitMQ when `AMQP_URL` is set, otherwise a new
 * in-process bus, which reaches only services in this process (the launcher shares one). Given
 * the bus of the process (`shared`), the service gets its own view of it instead, so closing the
 * service stops its consumers and leaves the bus to the others.
 */
export async function openBus(settings: BusSettings, service: string, logger: Logger, shared?: Bus): Promise<Bus> {
  if (shared) return new SharedBusView(shared);
  if (!settings.AMQP_URL) return new InProcessBus(logger);
  return RabbitMqBus.connect({ url: settings.AMQP_URL, prefix: settings.AMQP_PREFIX, service, logger });
}
