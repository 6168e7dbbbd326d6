import type { Node } from '@cloud/sdk/browser';

type Urls = Omit<Node['endpoints'], 'plain'>;

/** A node's addresses (its record's `endpoints`, or their plain HTTP ones), named for the person reading them. */
export function namedEndpoints(urls: Urls): { name: string; url: string }[] {
  const named: [string, string | undefined][] = [
    ['JSON-RPC', urls.jsonRpc],
    ['REST', urls.rest],
    ['WebSocket', urls.webSocket],
    ['Management (/status, /logs)', urls.management],
  ];
  return named.filter((entry): entry is [string, string] => entry[1] !== undefined).map(([name, url]) => ({ name, url }));
}
