import { NotFoundError, type CloudClient } from '@cloud/sdk';
import { UsageError } from '../exit-codes';

// Commands that take a node take its id or, when no other node of yours has it, its name: names
// are labels, not unique (services/nodes/README.md), so an ambiguous one is refused with the ids.

/** What the `<node>` argument of such a command says. */
export const NODE_ARGUMENT = "the node's id, or its name when no other node of yours has that name";

const NODE_ID = /^node-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The id of the node `idOrName` names: an id as given (the API says if it is unknown), else the one node of yours with that name. */
export async function resolveNodeId(cloud: CloudClient, idOrName: string): Promise<string> {
  if (NODE_ID.test(idOrName)) return idOrName;
  const wanted = idOrName.trim();
  const named = (await cloud.nodes.list()).filter((node) => node.name === wanted);
  if (named.length === 1) return named[0]!.id;
  if (named.length > 1) {
    throw new UsageError(
      `${named.length} of your nodes are named ${JSON.stringify(wanted)}: give one of their ids (${named.map((node) => node.id).join(', ')})`,
    );
  }
  throw new NotFoundError(404, 'NotFound', `no node of yours has the id or name ${JSON.stringify(idOrName)} (cloud nodes list shows them)`, 'nodes');
}
