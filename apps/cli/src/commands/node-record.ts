import { syncWords, type Node } from '@cloud/sdk';
import type { Context, NodeCredentials } from '../context';
import { printRecord } from '../output';
import { syncLine } from '../progress';
import { linesFor, printReadyLines, readyCredential } from '../ready-lines';

// A node's record, as `nodes create`, `nodes info` and the node operations print it.

/**
 * A node as a record: where to call it as its record prints it (`endpoints`: TLS, and plain HTTP
 * for loopback clients where served), and with a credential known on this machine (`kept`) or a
 * jwt node, the lines ready to paste.
 */
export function printNode(ctx: Context, node: Node, kept?: NodeCredentials): void {
  const { endpoints } = node;
  printRecord(ctx.output, [
    ['Id', node.id],
    ['Name', node.name ?? undefined],
    ['Image', `${node.image} (${node.software})`],
    ['Network', node.networkLabel],
    ['State', node.stateReason ? `${node.state}: ${node.stateReason}` : node.state],
    ['Sync', syncText(node)],
    ['Peers', syncWords(node).hint],
    ['Transaction index', node.txindex ? 'yes' : 'no'],
    ['Address', node.address],
    ['JSON-RPC', endpoints.jsonRpc],
    ['REST', endpoints.rest],
    ['WebSocket', endpoints.webSocket],
    ['Plain HTTP (loopback)', endpoints.plain?.jsonRpc],
    ['Plain REST (loopback)', endpoints.plain?.rest],
    ['Plain WebSocket (loopback)', endpoints.plain?.webSocket],
    [
      'Authentication',
      node.jwt
        ? 'Bearer: your client access token (cloud token)'
        : 'Basic (a node user and password), or a URL token in the path (cloud nodes credentials create <id> <name> --token)',
    ],
    ['Node user', node.nodeUser],
    ['Node password', node.nodePass],
    ['Large', node.large ? 'yes' : 'no'],
    ['Created', node.createdAt],
  ]);
  const credential = readyCredential(node, kept);
  if (credential) printReadyLines(ctx, linesFor(ctx, node, credential));
}

/** The sync as the state allows: live progress while the node runs, else its last reading and when it was taken. */
function syncText(node: Node): string {
  const words = syncWords(node);
  return words.kind === 'live' && node.sync ? `${node.sync.syncing ? 'syncing' : 'synced'} ${syncLine(node.sync)}` : words.text;
}
