import type { Bus, Subscription, Unsubscribe } from './bus';
import type { BusMessage } from './messages';
import type { RpcHandler, RpcMethod, RpcReply, RpcRequest } from './rpc';

/**
 * One service's view of a bus it shares with others in the process (`npm start`): everything goes
 * to the shared bus, but `close` stops only this service's consumers and servers (waiting for the
 * batches they are handling) and leaves the bus open for the rest. Without it, a service that
 * closed its database would still be handed messages until the last service closed the bus.
 */
export class SharedBusView implements Bus {
  private readonly stops: Unsubscribe[] = [];
  private closed = false;

  constructor(private readonly shared: Bus) {}

  get transport(): Bus['transport'] {
    return this.shared.transport;
  }

  publish(messages: readonly BusMessage[]): Promise<void> {
    return this.shared.publish(messages);
  }

  async subscribe(subscription: Subscription): Promise<Unsubscribe> {
    return this.keep(await this.shared.subscribe(subscription));
  }

  async serve<M extends RpcMethod>(method: M, handler: RpcHandler<M>): Promise<Unsubscribe> {
    return this.keep(await this.shared.serve(method, handler));
  }

  request<M extends RpcMethod>(method: M, request: RpcRequest<M>, timeoutMs?: number): Promise<RpcReply<M>> {
    return this.shared.request(method, request, timeoutMs);
  }

  checkReady(): void {
    this.shared.checkReady();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.all(this.stops.splice(0).map((stop) => stop()));
  }

  private keep(stop: Unsubscribe): Unsubscribe {
    this.stops.push(stop);
    return async () => {
      const index = this.stops.indexOf(stop);
      if (index >= 0) this.stops.splice(index, 1);
      await stop();
    };
  }
}
