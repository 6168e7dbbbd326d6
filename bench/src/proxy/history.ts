/**
 * A realistic history on a fresh dev chain, for the read mix (`read-mix.ts`): `blocks` blocks of
 * `transactions` transactions each, then `SETTLE_BLOCKS` empty blocks on top so every filled block
 * lies below any finality depth the proxy uses on a dev chain (2) or a Bitcoin-family one (6).
 * Filled fast: the transactions of a block go to the node as one JSON-RPC batch, then one block is
 * mined.
 *
 * - anvil (mining only when told: the driver's block interval is a day): half of each block's
 *   transactions are transfers between its ten dev accounts, half are calls to a small contract
 *   that counts them and logs `Counted(caller, count)`, so receipts hold logs, `eth_getLogs` finds
 *   them and `eth_call` at an old block reads a state that differs by block.
 * - Litecoin Core (no wallet: the driver runs it with -disablewallet): coinbases pay to OP_TRUE, so
 *   transactions spending them need no signature and are built here by hand. Each block spends one
 *   mature coinbase's fan-out (a transaction of `transactions` outputs, mined the block before) with
 *   `transactions` payments of two P2PKH outputs each, as a wallet's payment with change looks.
 *   Spending OP_TRUE is valid but not standard, and regtest's mempool enforces standardness, so
 *   the blocks are made with `generateblock` and the transactions in them, never the mempool.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { RpcTarget } from '@cloud/nodes';

/** Empty blocks mined on top of the filled ones. */
export const SETTLE_BLOCKS = 10;

export interface HistoryShape {
  blocks: number;
  transactions: number;
}

/** What the read mix needs to know about the history (the rest it reads from the node). */
export interface History {
  /** Heights of the first and last filled block. */
  firstBlock: number;
  lastBlock: number;
  /** anvil: the counting contract's address. */
  contract?: string;
}

type RpcRequest = { method: string; params: unknown[] };
type RpcAnswer = { id: number; result?: unknown; error?: { message?: string } | null };

/** Calls in one JSON-RPC batch; any error throws. Answers in the calls' order. */
export async function rpcBatch(node: RpcTarget, calls: RpcRequest[]): Promise<unknown[]> {
  if (calls.length === 0) return [];
  const body = JSON.stringify(calls.map((call, id) => ({ jsonrpc: '2.0', id, ...call })));
  const response = await fetch(node.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(node.authorization ? { authorization: node.authorization } : {}) },
    body,
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`batch of ${calls.length} ${calls[0]!.method}: HTTP ${response.status} ${text.slice(0, 300)}`);
  const answers = JSON.parse(text) as RpcAnswer[];
  answers.sort((a, b) => a.id - b.id);
  const failed = answers.find((answer) => answer.error);
  if (failed || answers.length !== calls.length) {
    throw new Error(`batch of ${calls.length} ${calls[0]!.method}: ${failed?.error?.message ?? `${answers.length} answers`}`);
  }
  return answers.map((answer) => answer.result);
}

export const rpc = async (node: RpcTarget, method: string, params: unknown[] = []): Promise<unknown> => (await rpcBatch(node, [{ method, params }]))[0];

// --- anvil ---

/** The event's topic: any constant names it (a keccak256 of its signature would need a keccak implementation). */
const COUNTED_TOPIC = createHash('sha256').update('Counted(address,uint256)').digest('hex');

/**
 * The counting contract. Runtime: count = sload(0) + 1; sstore(0, count); mstore(0, count);
 * log2(0, 32, COUNTED_TOPIC, caller); return(0, 32). Whatever the calldata, a call returns the
 * new count.
 */
const COUNTER_RUNTIME = `6000546001018060005560005233${`7f${COUNTED_TOPIC}`}60206000a260206000f3`;
/** PUSH1 len DUP1 PUSH1 11 PUSH1 0 CODECOPY PUSH1 0 RETURN, then the runtime (from byte 11). */
const COUNTER_INIT = `0x60${(COUNTER_RUNTIME.length / 2).toString(16).padStart(2, '0')}80600b6000396000f3${COUNTER_RUNTIME}`;

const hex = (value: number) => `0x${value.toString(16)}`;

export async function fillAnvilHistory(node: RpcTarget, shape: HistoryShape): Promise<History> {
  const accounts = (await rpc(node, 'eth_accounts')) as string[];
  if (accounts.length < 2) throw new Error('anvil has fewer than two accounts');
  const nonces = new Map(accounts.map((account) => [account, 0]));
  for (const account of accounts) nonces.set(account, Number(await rpc(node, 'eth_getTransactionCount', [account, 'pending'])));
  const send = (from: string, fields: Record<string, string>) => {
    const nonce = nonces.get(from)!;
    nonces.set(from, nonce + 1);
    return { method: 'eth_sendTransaction', params: [{ from, nonce: hex(nonce), ...fields }] };
  };
  const [deployHash] = (await rpcBatch(node, [send(accounts[0]!, { data: COUNTER_INIT, gas: hex(200_000) })])) as string[];
  await rpc(node, 'evm_mine');
  const receipt = (await rpc(node, 'eth_getTransactionReceipt', [deployHash])) as { contractAddress?: string; status?: string } | null;
  if (!receipt?.contractAddress || receipt.status !== '0x1') throw new Error(`the counting contract was not deployed: ${JSON.stringify(receipt)}`);
  const contract = receipt.contractAddress;
  const firstBlock = Number(await rpc(node, 'eth_blockNumber')) + 1;
  for (let block = 0; block < shape.blocks; block++) {
    const calls = Array.from({ length: shape.transactions }, (_, index) => {
      const from = accounts[index % accounts.length]!;
      return index % 2 === 0
        ? send(from, { to: contract, data: `0x70a08231${from.slice(2).padStart(64, '0')}`, gas: hex(100_000) })
        : send(from, { to: accounts[(index + 1) % accounts.length]!, value: hex(1_000 + block), gas: hex(21_000) });
    });
    await rpcBatch(node, calls);
    await rpc(node, 'evm_mine');
  }
  const lastBlock = firstBlock + shape.blocks - 1;
  const last = (await rpc(node, 'eth_getBlockByNumber', [hex(lastBlock), false])) as { transactions: string[] };
  if (last.transactions.length !== shape.transactions) {
    throw new Error(`block ${lastBlock} holds ${last.transactions.length} transactions, not ${shape.transactions}`);
  }
  await rpcBatch(
    node,
    Array.from({ length: SETTLE_BLOCKS }, () => ({ method: 'evm_mine', params: [] })),
  );
  return { firstBlock, lastBlock, contract };
}

// --- Litecoin Core ---

const OP_TRUE = Buffer.from([0x51]);
/** A fee per transaction (0.001 LTC), as a wallet would pay. */
const FEE = 100_000n;
/** Coinbases mature after 100 blocks. */
const COINBASE_MATURITY = 100;

interface Output {
  value: bigint;
  script: Buffer;
}

interface Outpoint {
  txid: string;
  vout: number;
  value: bigint;
}

function varint(value: number): Buffer {
  if (value < 0xfd) return Buffer.from([value]);
  if (value <= 0xffff) return Buffer.from([0xfd, value & 0xff, value >> 8]);
  const buffer = Buffer.alloc(5);
  buffer[0] = 0xfe;
  buffer.writeUInt32LE(value, 1);
  return buffer;
}

/** A legacy (non-segwit) transaction spending OP_TRUE outputs: empty scriptSigs. */
function transaction(inputs: Outpoint[], outputs: Output[]): { hex: string; txid: string } {
  const parts: Buffer[] = [];
  const version = Buffer.alloc(4);
  version.writeUInt32LE(2);
  parts.push(version, varint(inputs.length));
  for (const input of inputs) {
    const vout = Buffer.alloc(4);
    vout.writeUInt32LE(input.vout);
    parts.push(Buffer.from(input.txid, 'hex').reverse(), vout, varint(0), Buffer.from([0xff, 0xff, 0xff, 0xff]));
  }
  parts.push(varint(outputs.length));
  for (const output of outputs) {
    const value = Buffer.alloc(8);
    value.writeBigUInt64LE(output.value);
    parts.push(value, varint(output.script.length), output.script);
  }
  parts.push(Buffer.alloc(4));
  const bytes = Buffer.concat(parts);
  const sha = (data: Buffer) => createHash('sha256').update(data).digest();
  return {
    hex: bytes.toString('hex'),
    txid: Buffer.from(sha(sha(bytes)))
      .reverse()
      .toString('hex'),
  };
}

/** OP_DUP OP_HASH160 <20 random bytes> OP_EQUALVERIFY OP_CHECKSIG: a payment to an address nobody holds. */
const payToRandomAddress = () => Buffer.concat([Buffer.from([0x76, 0xa9, 0x14]), randomBytes(20), Buffer.from([0x88, 0xac])]);

/** One OP_TRUE input split into `count` OP_TRUE outputs. */
function fanOut(input: Outpoint, count: number) {
  const each = (input.value - FEE) / BigInt(count);
  const tx = transaction(
    [input],
    Array.from({ length: count }, () => ({ value: each, script: OP_TRUE })),
  );
  return { ...tx, outputs: Array.from({ length: count }, (_, vout) => ({ txid: tx.txid, vout, value: each })) };
}

/** A payment with change: two P2PKH outputs. */
function payment(input: Outpoint) {
  const paid = (input.value - FEE) / 3n;
  return transaction(
    [input],
    [
      { value: paid, script: payToRandomAddress() },
      { value: input.value - FEE - paid, script: payToRandomAddress() },
    ],
  );
}

const toLites = (coins: number) => BigInt(Math.round(coins * 1e8));

export async function fillLitecoindHistory(node: RpcTarget, shape: HistoryShape): Promise<History> {
  const start = (await rpc(node, 'getblockcount')) as number;
  // A coinbase per filled block, plus one for the first fan-out, all mature.
  await rpc(node, 'generatetodescriptor', [shape.blocks + 1 + COINBASE_MATURITY, 'raw(51)']);
  const coinbase = async (height: number): Promise<Outpoint> => {
    const hash = (await rpc(node, 'getblockhash', [height])) as string;
    const block = (await rpc(node, 'getblock', [hash, 2])) as { tx: { txid: string; vout: { value: number }[] }[] };
    const first = block.tx[0]!;
    return { txid: first.txid, vout: 0, value: toLites(first.vout[0]!.value) };
  };
  /** Mines a block holding these transactions, checks it holds the first; its height. */
  const mine = async (transactions: { hex: string; txid: string }[]): Promise<number> => {
    const { hash } = (await rpc(node, 'generateblock', ['raw(51)', transactions.map((tx) => tx.hex)])) as { hash: string };
    const block = (await rpc(node, 'getblock', [hash, 1])) as { height: number; tx: string[] };
    if (block.tx[1] !== transactions[0]!.txid) throw new Error(`block ${block.height} holds ${block.tx[1]}, not ${transactions[0]!.txid}`);
    return block.height;
  };
  let spendable = fanOut(await coinbase(start + 1), shape.transactions);
  const firstBlock = (await mine([spendable])) + 1;
  let lastBlock = firstBlock;
  for (let block = 0; block < shape.blocks; block++) {
    const payments = spendable.outputs.map(payment);
    // The next block's fan-out rides in this one (`transactions` + 1 in all); the last block has none.
    const next = block < shape.blocks - 1 ? fanOut(await coinbase(start + 2 + block), shape.transactions) : undefined;
    lastBlock = await mine(next ? [...payments, next] : payments);
    if (next) spendable = next;
  }
  await rpc(node, 'generatetodescriptor', [SETTLE_BLOCKS, 'raw(51)']);
  await untilTxindexSynced(node);
  return { firstBlock, lastBlock };
}

/** The transaction index is built in the background: `getrawtransaction <txid>` finds old transactions once it caught up. */
async function untilTxindexSynced(node: RpcTarget): Promise<void> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const info = (await rpc(node, 'getindexinfo', ['txindex'])) as { txindex?: { synced: boolean; best_block_height: number } };
    if (info.txindex?.synced) return;
    if (Date.now() > deadline) throw new Error(`the transaction index is not built after 120 s (${JSON.stringify(info)})`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
