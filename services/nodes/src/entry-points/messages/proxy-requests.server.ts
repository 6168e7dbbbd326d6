import type { Bus } from '@cloud/bus';
import type { NodeRegistry } from '../../domain/node-registry';

// As many lines as a request may ask for: more than the local driver keeps in practice.
const WHOLE_LOG_LINES = 100_000;
// Under RabbitMQ's default largest message (16 MiB), with room for JSON escaping.
const MAX_LOG_REPLY_BYTES = 8 * 1024 * 1024;

/** Answers the node-proxy: the routing table (`nodes.routes`) and node logs (`nodes.logs`). */
export async function serveProxyRequests(bus: Bus, nodes: NodeRegistry): Promise<void> {
  await bus.serve('nodes.routes', ({ after, limit }) => nodes.routes(after, limit));
  await bus.serve('nodes.logs', async ({ nodeId, lines }) => ({
    lines: newestWithin(await nodes.logsOfAnyNode(nodeId, lines ?? WHOLE_LOG_LINES), MAX_LOG_REPLY_BYTES),
  }));
}

/** The newest lines whose text fits in `maxBytes`, oldest first. */
export function newestWithin(lines: readonly string[], maxBytes: number): string[] {
  let bytes = 0;
  let first = lines.length;
  while (first > 0 && bytes + Buffer.byteLength(lines[first - 1]!) + 3 <= maxBytes) {
    first -= 1;
    bytes += Buffer.byteLength(lines[first]!) + 3; // quotes and comma
  }
  return lines.slice(first);
}
