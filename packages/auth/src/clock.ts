/** Milliseconds since the epoch. Injected wherever time matters so tests can move it. */
export type Clock = () => number;

export const systemClock: Clock = () => Date.now();
