/**
 * Runs each node's operations one after another, never interleaved (an `ensure` racing a
 * `destroy` of the same node), while different nodes' operations run side by side. A failed
 * operation rejects its own caller only; the next one still runs.
 */
export class PerNodeQueue {
  private readonly tails = new Map<string, Promise<void>>();

  run(nodeId: string, operation: () => Promise<void>): Promise<void> {
    const result = (this.tails.get(nodeId) ?? Promise.resolve()).then(operation);
    const settled = result.catch(() => undefined);
    this.tails.set(nodeId, settled);
    void settled.then(() => {
      if (this.tails.get(nodeId) === settled) this.tails.delete(nodeId);
    });
    return result;
  }
}
