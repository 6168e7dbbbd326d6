export type { CallEvent, CallEventSink, CallInput, CallOutput, CallServiceData } from './call-event';
export { attributeCallTo, CallRecorder } from './call-recorder';
export type { CallRecorderOptions } from './call-recorder';
export { outboxSink } from './outbox-sink';
