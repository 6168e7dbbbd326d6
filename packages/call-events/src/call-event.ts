/** The event record of one API call (spec section 2, Event record). */
export interface CallEvent {
  id: string;
  user: string;
  service: string;
  input: CallInput;
  output: CallOutput;
  serviceData: CallServiceData;
  createdAt: string;
}

/** What was called. Never a body, a query string, a secret or a token: only the shape of the call. */
export interface CallInput {
  method?: string;
  route?: string;
  resourceId?: string;
}

export interface CallOutput {
  startTime: string;
  endTime: string;
  httpStatusCode: number;
  bytesOut: number;
}

export interface CallServiceData {
  requestId?: string;
}

/** Where recorded events go: the accounts database now, the message bus later. */
export interface CallEventSink {
  record(event: CallEvent): Promise<void>;
}
