import type { Payload } from '@cloud/bus';

/**
 * The event record of one API call (spec section 2, Event record), as it travels on the bus
 * (`call.recorded`). Input holds only the shape of the call: never a body, a query string, a
 * secret or a token.
 */
export type CallEvent = Payload<'call.recorded'>;
export type CallInput = CallEvent['input'];
export type CallOutput = CallEvent['output'];
export type CallServiceData = CallEvent['serviceData'];

/** Where recorded events go: the accounts database for the accounts service, the outbox for the others. */
export interface CallEventSink {
  record(event: CallEvent): Promise<void>;
}
