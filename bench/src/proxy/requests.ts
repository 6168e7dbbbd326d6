/** The two request shapes the benchmark sends, the bench node's credentials, and how a correct answer looks. */
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
