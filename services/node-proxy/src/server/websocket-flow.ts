import WebSocket from 'ws';

/** Node's own high-water mark for a socket: past it, `pipe` would pause the source. */
export const HIGH_WATER_BYTES = 16 * 1024;

/**
 * The bytes a bridged connection holds in the proxy, kept bounded: the caller's messages taken
 * but not yet handed to the node's socket, answers the caller's socket has not taken (it is not
 * reading), and calls the node's socket has not taken. Over the high-water mark both sockets stop
 * being read (no more calls from the caller, no more answers from the node) until the bytes drain;
 * past `maxBytes`, which pausing cannot prevent when a single answer is larger or many were in
 * flight, the caller is closed with 1008 and the node's socket dropped.
 */
export class BridgeFlow {
  private queued = 0;
  private paused = false;
  private overflowed = false;

  constructor(
    private readonly client: WebSocket,
    private readonly node: WebSocket,
    private readonly maxBytes: number,
    private readonly onOverflow: () => void,
  ) {}

  /** What the bridge holds for this connection now. */
  get held(): number {
    return this.queued + this.client.bufferedAmount + this.node.bufferedAmount;
  }

  /** A caller's message taken, until `handed`. */
  taken(bytes: number): void {
    this.queued += bytes;
    this.check();
  }

  /** A caller's message answered by the proxy or handed to the node's socket. */
  handed(bytes: number): void {
    this.queued -= bytes;
    this.check();
  }

  /** Sends to the caller, accounting for what its socket does not take. */
  toClient(text: string): void {
    if (this.client.readyState !== WebSocket.OPEN) return;
    this.client.send(text, () => this.check());
    this.check();
  }

  /** Sends to the node (open), accounting for what its socket does not take. */
  toNode(text: string): void {
    this.node.send(text, () => this.check());
    this.check();
  }

  /** Pauses, resumes or closes by what is held now; runs after every change and every write flushed. */
  check(): void {
    if (this.overflowed) return;
    const held = this.held;
    if (held > this.maxBytes) {
      this.overflowed = true;
      this.onOverflow();
    } else if (held > HIGH_WATER_BYTES) {
      // Again at every check: a socket still connecting cannot be paused yet.
      this.client.pause();
      this.node.pause();
      this.paused = true;
    } else if (this.paused) {
      this.client.resume();
      this.node.resume();
      this.paused = false;
    }
  }
}
