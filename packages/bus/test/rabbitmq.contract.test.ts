import { connect, type Channel, type ChannelModel } from 'amqplib';
import { RabbitMqBus } from '../src';
import { deleteBusTopology, TEST_AMQP_URL, uniqueBusPrefix } from '../src/testing';
import { busContract, type DeadLetterView } from './contract';
import { silentLogger } from './helpers';

busContract({
  transport: 'rabbitmq',
  open: async (retry) => {
    const prefix = uniqueBusPrefix('contract');
    const buses: RabbitMqBus[] = [];
    const dead: DeadLetterView[] = [];
    let reader: { connection: ChannelModel; channel: Channel } | undefined;
    let closed = false;
    return {
      async instance() {
        const bus = await RabbitMqBus.connect({ url: TEST_AMQP_URL, prefix, service: 'cloud-bus-test', logger: silentLogger(), retry });
        buses.push(bus);
        await bus.waitUntilConnected();
        return bus;
      },
      async deadLetters() {
        if (closed) throw new Error('the installation is closed');
        if (!reader) {
          const connection = await connect(TEST_AMQP_URL);
          const channel = await connection.createChannel();
          // A failed `get` rejects on its own; without a listener the channel's 'error' event would throw.
          channel.on('error', () => undefined);
          reader = { connection, channel };
        }
        // `get` with noAck takes the message off the queue, so what was read is kept here.
        for (;;) {
          const got = await reader.channel.get(`${prefix}.accounts.call-events.dead`, { noAck: true });
          if (!got) break;
          dead.push({ body: got.content.toString('utf8'), reason: String(got.properties.headers?.['x-error']) });
        }
        return [...dead];
      },
      async close() {
        if (closed) return;
        closed = true;
        try {
          await Promise.all(buses.map((bus) => bus.close()));
          await reader?.connection.close();
        } finally {
          const queues = buses.flatMap((bus) => bus.declaredNames().queues);
          if (buses[0]) await deleteBusTopology(TEST_AMQP_URL, { exchange: buses[0].exchange, queues });
        }
      },
    };
  },
});
