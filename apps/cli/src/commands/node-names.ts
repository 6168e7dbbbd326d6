import { NotFoundError, type CloudClient } from '@cloud/sdk';
import { UsageError } from '../exit-codes';

// Commands that take a node (or a pool) take its id or, when no other of yours has it, its name:
// names are labels, not unique (services/nodes/README.md), so an ambiguous one is refused with the ids.

/** What the `<node>` argument of such a command says. */
export const NODE_ARGUMENT = "the node's id, or its name when no other node of yours has that name";
/** What the `<pool>` argument says. */
export const POOL_ARGUMENT = "the pool's id, or its name when no other pool of yours has that name";

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const NODE_ID = new RegExp(`^node-${UUID}$`);
const POOL_ID = new RegExp(`^pool-${UUID}$`);

/** The id of the node `idOrName` names: an id as given (the API says if it is unknown), else the one node of yours with that name. */
export function resolveNodeId(cloud: CloudClient, idOrName: string): Promise<string> {
  return resolveId('node', NODE_ID, () => cloud.nodes.list(), idOrName);
}

/** The id of the pool `idOrName` names, by the same rule. */
export function resolvePoolId(cloud: CloudClient, idOrName: string): Promise<string> {
  return resolveId('pool', POOL_ID, () => cloud.pools.list(), idOrName);
}

async function resolveId(
  kind: 'node' | 'pool',
  idPattern: RegExp,
  list: () => Promise<Array<{ id: string; name: string | null }>>,
  idOrName: string,
): Promise<string> {
  if (idPattern.test(idOrName)) return idOrName;
  const wanted = idOrName.trim();
  const named = (await list()).filter((each) => each.name === wanted);
  if (named.length === 1) return named[0]!.id;
  if (named.length > 1) {
    throw new UsageError(
      `${named.length} of your ${kind}s are named ${JSON.stringify(wanted)}: give one of their ids (${named.map((each) => each.id).join(', ')})`,
    );
  }
  throw new NotFoundError(404, 'NotFound', `no ${kind} of yours has the id or name ${JSON.stringify(idOrName)} (cloud ${kind}s list shows them)`, 'nodes');
}
