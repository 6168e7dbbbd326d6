/**
 * A real node as the benchmark's upstream, as a child process: the nodes service's local driver
 * runs it (anvil for `anvil`, Litecoin Core for `litecoind`, argv[2]) on a private dev chain, with
 * the RPC login derived from a key this child makes, exactly as the platform runs users' nodes.
 * It then gives the chain something to serve and reports the node's port, the daemon's pid (its
 * CPU is the upstream's) and what requests need:
 * - anvil: a block of BLOCK_TRANSACTIONS transfers, mined as the latest block, so `eth_getBlockByNumber("latest",
 *   true)` returns a full block (no other block is mined during the run: the block interval is a day);
 * - litecoind: 101 blocks mined at once, and the tip's hash for `getblock <hash> 2`.
 *
 * With `history <blocks> <transactions>` after the kind (the read mix, `read-mix.ts`) it fills the
 * chain with a history instead (`history.ts`); litecoind then keeps a transaction index, as a node
 * serving `getrawtransaction` for old transactions does.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createLogger } from '@cloud/logging';
import { loadNodeRpcKey, nodeRpcAuthorization } from '@cloud/node-rpc-auth';
import { callJsonRpc, createLocalDriver, type RpcTarget } from '@cloud/nodes';
import { reportReady } from './child';
import { fillAnvilHistory, fillLitecoindHistory, type HistoryShape } from './history';
import { BENCH_NODE_ID } from './requests';

/**
 * Transfers in the block `eth_getBlockByNumber("latest", true)` returns (BLOCK_TRANSACTIONS, 10:
 * an 8.7 KB answer). anvil takes ~25 ms of CPU for a block of 100, which would hide any proxy.
 */
const TX_COUNT = Number(process.env.BLOCK_TRANSACTIONS || '10');

type Kind = 'anvil' | 'litecoind';

/** One call to the node as the driver makes them (`callJsonRpc`); a JSON-RPC error throws. */
const rpc = (node: RpcTarget, method: string, params: unknown[] = []) => callJsonRpc(node, { method, params });

async function fillAnvil(node: RpcTarget): Promise<Record<string, string>> {
  const [from, to] = (await rpc(node, 'eth_accounts')) as string[];
  if (!from || !to) throw new Error('anvil has fewer than two accounts');
  for (let index = 0; index < TX_COUNT; index++) await rpc(node, 'eth_sendTransaction', [{ from, to, value: '0x1' }]);
  await rpc(node, 'evm_mine');
  const block = (await rpc(node, 'eth_getBlockByNumber', ['latest', true])) as { number: string; transactions: unknown[] };
  if (block.transactions.length !== TX_COUNT) throw new Error(`the latest block holds ${block.transactions.length} transactions, not ${TX_COUNT}`);
  return { latestBlock: block.number, transactions: String(TX_COUNT) };
}

async function fillLitecoind(node: RpcTarget): Promise<Record<string, string>> {
  await rpc(node, 'generatetodescriptor', [101, 'raw(51)']);
  const height = (await rpc(node, 'getblockcount')) as number;
  const tip = (await rpc(node, 'getblockhash', [height])) as string;
  return { height: String(height), tipHash: tip };
}

/** The history argv asks for (`history <blocks> <transactions>`), or undefined. */
function historyShape(): HistoryShape | undefined {
  if (process.argv[3] !== 'history') return undefined;
  const [blocks, transactions] = [Number(process.argv[4]), Number(process.argv[5])];
  if (!(blocks > 0 && transactions > 0)) throw new Error(`usage: real-node.js <kind> history <blocks> <transactions>, not ${process.argv.slice(3).join(' ')}`);
  return { blocks, transactions };
}

async function fill(kind: Kind, node: RpcTarget, history: HistoryShape | undefined): Promise<Record<string, string>> {
  if (!history) return kind === 'anvil' ? fillAnvil(node) : fillLitecoind(node);
  const filled = kind === 'anvil' ? await fillAnvilHistory(node, history) : await fillLitecoindHistory(node, history);
  return Object.fromEntries(Object.entries(filled).map(([key, value]) => [key, String(value)]));
}

async function main(): Promise<void> {
  const kind = process.argv[2] as Kind;
  if (kind !== 'anvil' && kind !== 'litecoind') throw new Error(`usage: real-node.js anvil|litecoind, not ${process.argv[2]}`);
  const history = historyShape();
  const dir = mkdtempSync(path.join(os.tmpdir(), `bench-${kind}-`));
  const key = loadNodeRpcKey({ DATA_DIR: dir });
  const rootDir = path.join(dir, 'nodes');
  const driver = createLocalDriver({
    rootDir,
    secretKey: key,
    logger: createLogger({ service: 'bench', level: 'silent' }),
    blockIntervalSeconds: 86_400,
    ethChainId: 31_337,
    binaries: { litecoind: process.env.LITECOIND_PATH || undefined, anvil: process.env.ANVIL_PATH || undefined },
    networks: 'dev',
  });
  await driver.ensure({
    id: BENCH_NODE_ID,
    image: kind === 'anvil' ? 'eth' : 'ltc',
    large: false,
    dev: true,
    txindex: history !== undefined && kind === 'litecoind',
  });
  const deadline = Date.now() + 60_000;
  let url: string | undefined;
  while (!url) {
    const status = await driver.status(BENCH_NODE_ID);
    if (status.state === 'running') url = status.endpoint.url;
    else if (status.state === 'failed') throw new Error(`the ${kind} node failed: ${status.reason}`);
    else if (Date.now() > deadline) throw new Error(`the ${kind} node is not running after 60 s (${status.state})`);
    else await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const authorization = nodeRpcAuthorization(key, BENCH_NODE_ID);
  const node = { url, authorization };
  const facts = await fill(kind, node, history);
  const { pid } = JSON.parse(readFileSync(path.join(rootDir, BENCH_NODE_ID, 'node.json'), 'utf8')) as { pid: number };
  reportReady(
    Number(new URL(url).port),
    async () => {
      await driver.destroy(BENCH_NODE_ID);
      await driver.close();
      rmSync(dir, { recursive: true, force: true });
    },
    { pids: [pid], facts: { ...facts, keyFile: path.join(dir, 'keys', 'node-rpc.key'), authorization } },
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`real-node (bench) failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
