import type { MethodLists, MethodPolicy } from '../../src/json-rpc/method-policy';
import type { Family } from '../../src/routing/interfaces';
import { AVALANCHE_JSON_RPC_PATHS } from '../../src/server/avalanche-api';
import { bitcoinCandidates, goCandidates, namespacedCandidates, namespacesIn, scriptCandidates } from './candidates';
import { PROBES, servedMethods, type NodeEndpoint } from './served-methods';

/** How a node program keeps its method names: decides where the candidates come from. */
export type ProgramKind = 'bitcoin-binary' | 'bitcoin-script' | 'rust-ethereum' | 'go-ethereum' | 'go-avalanche' | 'avalanche-script';

/** The kind of program a node's software label names (`litecoin-core-0.21.2.1`, `anvil-1.7.1`). */
export function programKind(software: string, family: Family): ProgramKind {
  const script = software.startsWith('cloud-dev-chain');
  if (family === 'bitcoin') return script ? 'bitcoin-script' : 'bitcoin-binary';
  if (script) return 'avalanche-script';
  if (software.startsWith('anvil')) return 'rust-ethereum';
  if (family === 'ethereum') return 'go-ethereum';
  return 'go-avalanche';
}

/** The namespaces the lists name (`eth`, `platform`), with the separator after them. */
function listNamespaces(lists: MethodLists, separator: '_' | '.'): Set<string> {
  const namespaces = new Set<string>();
  for (const name of [...lists.allowed, ...lists.refused]) {
    const at = name.indexOf(separator);
    if (at > 0) namespaces.add(name.slice(0, at));
  }
  return namespaces;
}

const namespaceOf = (name: string) => name.slice(0, name.search(/[._]/));

/** `help`'s command names (Bitcoin Core and its forks list every public call, one per line). */
async function helpNames(endpoint: NodeEndpoint): Promise<string[]> {
  const answer = (await (
    await fetch(endpoint.url, {
      method: 'POST',
      headers: { authorization: endpoint.authorization ?? '' },
      body: JSON.stringify({ id: 1, method: 'help', params: [] }),
    })
  ).json()) as { result: string };
  return answer.result
    .split('\n')
    .map((line) => line.split(' ')[0]!)
    .filter((word) => /^[a-z]+$/.test(word));
}

/** geth's `rpc_modules`: the namespaces it serves. */
async function rpcModules(endpoint: NodeEndpoint, path: string): Promise<string[]> {
  const response = await fetch(new URL(path, endpoint.url), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'rpc_modules', params: [] }),
  });
  const answer = (await response.json()) as { result?: Record<string, string> };
  return Object.keys(answer.result ?? {});
}

/**
 * Every method the node serves, as the node says: candidates from its program's text (and `help`),
 * each called and kept unless the node answers that it has no such method.
 */
export async function methodsServed(kind: ProgramKind, endpoint: NodeEndpoint, text: string, lists: MethodLists): Promise<Set<string>> {
  switch (kind) {
    case 'bitcoin-binary':
      return servedMethods(endpoint, '/', new Set([...bitcoinCandidates(text), ...(await helpNames(endpoint))]), PROBES.bitcoin);
    case 'rust-ethereum': {
      // A cheap pass finds the namespaces in use; the thorough pass tries every length in them.
      const first = await servedMethods(endpoint, '/', namespacedCandidates(text, namespacesIn(text), false), PROBES.ethereum);
      const namespaces = new Set([...[...first].map(namespaceOf), ...listNamespaces(lists, '_')]);
      return servedMethods(endpoint, '/', namespacedCandidates(text, namespaces, true), PROBES.ethereum);
    }
    case 'go-ethereum': {
      const namespaces = new Set([...(await rpcModules(endpoint, '/')), ...listNamespaces(lists, '_')]);
      return servedMethods(endpoint, '/', goCandidates(text, namespaces, '_'), PROBES.ethereum);
    }
    case 'go-avalanche':
      return avalancheMethods(endpoint, (path) =>
        path === '/ext/bc/C/rpc'
          ? rpcModules(endpoint, path).then((modules) => goCandidates(text, new Set([...modules, ...listNamespaces(lists, '_')]), '_'))
          : servicesAt(endpoint, path, listNamespaces(lists, '.')).then((services) => goCandidates(text, services, '.')),
      );
    case 'bitcoin-script':
      return servedMethods(endpoint, '/', scriptCandidates(text), PROBES.bitcoin);
    case 'avalanche-script': {
      // Its methods are `service.method` or `namespace_method`: other words need no call.
      const qualified = new Set([...scriptCandidates(text)].filter((name) => /[._]/.test(name)));
      return avalancheMethods(endpoint, () => Promise.resolve(qualified));
    }
  }
}

/** The services of `namespaces` that answer at `path`: gorilla/rpc says "can't find service" for the others. */
async function servicesAt(endpoint: NodeEndpoint, path: string, namespaces: Iterable<string>): Promise<Set<string>> {
  const found = new Set<string>();
  for (const namespace of namespaces) {
    const response = await fetch(new URL(path, endpoint.url), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: `${namespace}.driftProbe`, params: {} }),
    });
    const answer = (await response.json()) as { error?: { message?: string } };
    if (!/can't find service/.test(answer.error?.message ?? '')) found.add(namespace);
  }
  return found;
}

/** The methods served at each of the proxy's avalanche JSON-RPC paths, one call at a time (avalanchego takes no batches). */
async function avalancheMethods(endpoint: NodeEndpoint, candidatesAt: (path: string) => Promise<Set<string>>): Promise<Set<string>> {
  const found = new Set<string>();
  for (const path of AVALANCHE_JSON_RPC_PATHS)
    for (const name of await servedMethods(endpoint, path, await candidatesAt(path), PROBES.avalanche)) found.add(name);
  return found;
}

/** The served methods that neither list has: each needs a person to decide, allow or refuse. */
export function unlisted(served: Iterable<string>, policy: MethodPolicy): string[] {
  return [...served].filter((name) => policy.verdict(name) === 'unknown').sort();
}
