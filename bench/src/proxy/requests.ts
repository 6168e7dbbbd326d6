/**
 * The requests the benchmark sends to each upstream, the bench node's credentials, and how a
 * correct answer looks: against the synthetic upstream one `eth_blockNumber` and a batch of 50
 * (SCENARIOS); against a real node (anvil, litecoind) the calls its users make most
 * (`realScenarios`).
 */
import { createHash } from 'node:crypto';

export const BENCH_NODE_ID = 'node-bench';
export const BENCH_NODE_USER = 'bench';
export const BENCH_NODE_PASSWORD = 'bench-password-0123456789abcdef';
export const BATCH_SIZE = 50;

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

export interface Scenario {
  name: string;
  title: string;
  body: string;
  /** Whether an answer body is the right one for this request. */
  check(answer: unknown): boolean;
}

const call = (id: number) => ({ jsonrpc: '2.0', id, method: 'eth_blockNumber', params: [] });
const isAnswer = (answer: unknown, id: number) => {
  const value = answer as { jsonrpc?: unknown; id?: unknown; result?: unknown } | null;
  return value?.jsonrpc === '2.0' && value.id === id && value.result === '0x10';
};

const small = JSON.stringify(call(1));
const batch = JSON.stringify(Array.from({ length: BATCH_SIZE }, (_, index) => call(index + 1)));

export const SCENARIOS: readonly Scenario[] = [
  {
    name: 'small',
    title: `Small request: one \`eth_blockNumber\` call (${Buffer.byteLength(small)} B request body)`,
    body: small,
    check: (answer) => isAnswer(answer, 1),
  },
  {
    name: 'batch',
    title: `Batch: ${BATCH_SIZE} \`eth_blockNumber\` calls in one request (${Buffer.byteLength(batch)} B request body)`,
    body: batch,
    check: (answer) => Array.isArray(answer) && answer.length === BATCH_SIZE && answer.every((one, index) => isAnswer(one, index + 1)),
  },
];

/** The upstreams a run can measure behind the proxies: the synthetic one (`upstream.ts`) and real nodes (`real-node.ts`). */
export const UPSTREAM_KINDS = ['synthetic', 'anvil', 'litecoind'] as const;
export type UpstreamKind = (typeof UPSTREAM_KINDS)[number];

type Answer = { jsonrpc?: unknown; id?: unknown; result?: unknown; error?: unknown } | null;
const answered = (answer: unknown, id: number, result: (value: unknown) => boolean) => {
  const value = answer as Answer;
  // Litecoin Core answers JSON-RPC 1.0 style: no `jsonrpc` member, `"error": null`.
  return value !== null && typeof value === 'object' && value.id === id && (value.error === undefined || value.error === null) && result(value.result);
};
const rpcCall = (id: number, method: string, params: unknown[] = []) => ({ jsonrpc: '2.0', id, method, params });

function single(name: string, label: string, method: string, params: unknown[], result: (value: unknown) => boolean): Scenario {
  const body = JSON.stringify(rpcCall(1, method, params));
  return { name, title: `${label} (${Buffer.byteLength(body)} B request body)`, body, check: (answer) => answered(answer, 1, result) };
}

function batchOf(name: string, method: string, result: (value: unknown) => boolean): Scenario {
  const body = JSON.stringify(Array.from({ length: BATCH_SIZE }, (_, index) => rpcCall(index + 1, method)));
  return {
    name,
    title: `Batch: ${BATCH_SIZE} \`${method}\` calls in one request (${Buffer.byteLength(body)} B request body)`,
    body,
    check: (answer) => Array.isArray(answer) && answer.length === BATCH_SIZE && answer.every((one, index) => answered(one, index + 1, result)),
  };
}

const isHexQuantity = (value: unknown) => typeof value === 'string' && /^0x[0-9a-f]+$/.test(value);

/**
 * The requests against a real node, given what its child set up (`facts`: the full block's
 * transaction count, the tip's hash).
 */
export function realScenarios(kind: Exclude<UpstreamKind, 'synthetic'>, facts: Record<string, string>): Scenario[] {
  if (kind === 'anvil') {
    const transactions = Number(facts.transactions);
    return [
      single('eth_blockNumber', 'anvil: one `eth_blockNumber` call', 'eth_blockNumber', [], isHexQuantity),
      single(
        'eth_getBlockByNumber',
        `anvil: \`eth_getBlockByNumber("latest", true)\`, a block of ${transactions} transfers`,
        'eth_getBlockByNumber',
        ['latest', true],
        (value) =>
          Array.isArray((value as { transactions?: unknown } | null)?.transactions) &&
          (value as { transactions: unknown[] }).transactions.length === transactions,
      ),
      batchOf('batch', 'eth_blockNumber', isHexQuantity),
    ];
  }
  const tip = facts.tipHash ?? '';
  return [
    single('getblockcount', 'litecoind: one `getblockcount` call', 'getblockcount', [], (value) => typeof value === 'number'),
    single(
      'getblock',
      'litecoind: `getblock <tip> 2` (the block with its transactions decoded)',
      'getblock',
      [tip, 2],
      (value) => (value as { hash?: unknown } | null)?.hash === tip,
    ),
    batchOf('batch', 'getblockcount', (value) => typeof value === 'number'),
  ];
}
