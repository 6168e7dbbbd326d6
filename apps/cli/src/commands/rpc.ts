import type { Command } from 'commander';
import { isValidatorImage } from '@cloud/sdk';
import type { ContextOf } from '../context';
import { UsageError } from '../exit-codes';
import { printJson } from '../output';

// `cloud rpc <nodeId> <method> [params…]`: a JSON-RPC call to one of your nodes (or pools) through
// the node-proxy, at the address its record prints (http or https as the platform serves it), with
// the credential kept on this machine (Basic, or a URL token) or, for a jwt node, your client token.

export function registerRpcCommand(program: Command, contextOf: ContextOf): void {
  program
    .command('rpc')
    .description("call a node's (or a pool's) JSON-RPC through the node-proxy, e.g. cloud rpc <nodeId> getblockhash 0")
    .argument('<nodeId>', "a node's id, or a pool's (pool-…)")
    .argument('<method>', 'e.g. getblockcount, eth_blockNumber, info.getNodeID')
    .argument('[params...]', 'each parsed as JSON when it can be (0, true, {"a":1}), else taken as a string; one JSON object is sent as named params')
    .action(async (nodeId: string, method: string, params: string[], _options: unknown, command: Command) => {
      const ctx = contextOf(command);
      const cloud = ctx.cloud();
      const pool = nodeId.startsWith('pool-');
      const node = pool ? await cloud.pools.get(nodeId) : await cloud.nodes.get(nodeId);
      const credentials = ctx.nodeCredentials(nodeId);
      if (!('jwt' in node && node.jwt) && !credentials) {
        throw new UsageError(
          `no credentials for ${nodeId} on this machine (they are shown once, when it is created); make new ones with: cloud ${pool ? 'pools' : 'nodes'} credentials create ${nodeId} <name>`,
        );
      }
      const result = await cloud.rpc(node, method, rpcParams(params, isValidatorImage(node.image)), credentials);
      if (ctx.output.json || typeof result === 'object') return printJson(ctx.output, result);
      ctx.output.out.write(`${String(result)}\n`);
    });
}

/**
 * The params of the call: a single JSON object as named params (avalanchego takes only those),
 * else the positional list, each argument JSON when it parses (`0`, `true`, `"0000"`) or a string.
 */
export function rpcParams(args: string[], namedByDefault: boolean): unknown[] | Record<string, unknown> {
  const values = args.map((arg) => {
    try {
      return JSON.parse(arg) as unknown;
    } catch {
      return arg;
    }
  });
  const only = values[0];
  if (values.length === 1 && typeof only === 'object' && only !== null && !Array.isArray(only)) return only as Record<string, unknown>;
  if (values.length === 0 && namedByDefault) return {};
  return values;
}
