/**
 * Identical calls at the node at once: the first one (the leader) goes, the others wait for its
 * answer's `result` and answer with it under their own id. Undefined when the leader got no
 * clean result (an error, the node busy or unreachable): each of them then goes to the node itself.
 */
export class InFlight {
  private readonly calls = new Map<string, Promise<string | undefined>>();

  /** The leader's result for `key`, when one is at the node now. */
  joining(key: string): Promise<string | undefined> | undefined {
    return this.calls.get(key);
  }

  /** Runs `call` as the leader of `key`; those joining meanwhile get what it settles with (never its exception). */
  async lead<T>(key: string, call: (settle: (result: string | undefined) => void) => Promise<T>): Promise<T> {
    let resolve!: (result: string | undefined) => void;
    const shared = new Promise<string | undefined>((each) => {
      resolve = each;
    });
    this.calls.set(key, shared);
    const settle = (result: string | undefined) => {
      // A later leader of the same key may hold the slot already.
      if (this.calls.get(key) === shared) this.calls.delete(key);
      resolve(result);
    };
    try {
      return await call(settle);
    } finally {
      settle(undefined);
    }
  }
}
