import type { Transaction } from './block';
import { difficulty, serializeTransaction, toDisplayHex, txid } from './block';
import type { Chain, ChainEntry } from './chain';

const OP_CHECKSIG = 0xac;
const OPCODE_NAMES: Record<number, string> = {
  0x6a: 'OP_RETURN',
  0x76: 'OP_DUP',
  0x87: 'OP_EQUAL',
  0x88: 'OP_EQUALVERIFY',
  0xa9: 'OP_HASH160',
  0xac: 'OP_CHECKSIG',
};

/** Core's ScriptToAsmStr, for the few opcodes a coinbase output here can hold. */
function scriptAsm(script: Buffer): string {
  const parts: string[] = [];
  for (let i = 0; i < script.length;) {
    const op = script[i++] as number;
    if (op >= 0x01 && op <= 0x4b) {
      parts.push(script.subarray(i, i + op).toString('hex'));
      i += op;
    } else if (op === 0x00) parts.push('0');
    else if (op >= 0x51 && op <= 0x60) parts.push(String(op - 0x50));
    else parts.push(OPCODE_NAMES[op] ?? 'OP_UNKNOWN');
  }
  return parts.join(' ');
}

function scriptType(script: Buffer): string {
  const isPubkey = (script.length === 35 || script.length === 67) && script[0] === script.length - 2 && script[script.length - 1] === OP_CHECKSIG;
  return isPubkey ? 'pubkey' : 'nonstandard';
}

/** A transaction as getblock verbosity 2 and REST show it (no witnesses, so hash = txid). */
export function transactionView(tx: Transaction): Record<string, unknown> {
  const raw = serializeTransaction(tx);
  const id = toDisplayHex(txid(tx));
  return {
    txid: id,
    hash: id,
    version: tx.version,
    size: raw.length,
    vsize: raw.length,
    weight: raw.length * 4,
    locktime: tx.lockTime,
    vin: tx.inputs.map((input) => ({ coinbase: input.scriptSig.toString('hex'), sequence: input.sequence })),
    vout: tx.outputs.map((output, n) => ({
      value: Number(output.value) / 1e8,
      n,
      scriptPubKey: { asm: scriptAsm(output.scriptPubKey), hex: output.scriptPubKey.toString('hex'), type: scriptType(output.scriptPubKey) },
    })),
    hex: raw.toString('hex'),
  };
}

function links(chain: Chain, entry: ChainEntry): { previousblockhash?: string; nextblockhash?: string } {
  const next = chain.at(entry.height + 1);
  return {
    ...(entry.height > 0 && { previousblockhash: toDisplayHex(entry.block.header.prevHash) }),
    ...(next && { nextblockhash: next.hash }),
  };
}

function headerFields(entry: ChainEntry) {
  const { header } = entry.block;
  return {
    time: header.time,
    mediantime: entry.medianTime,
    nonce: header.nonce,
    bits: header.bits.toString(16).padStart(8, '0'),
    difficulty: difficulty(header.bits),
    chainwork: entry.chainwork.toString(16).padStart(64, '0'),
    nTx: entry.block.transactions.length,
  };
}

/** getblockheader's verbose object (and REST's headers). */
export function headerView(chain: Chain, entry: ChainEntry): Record<string, unknown> {
  const { header } = entry.block;
  return {
    hash: entry.hash,
    confirmations: chain.height - entry.height + 1,
    height: entry.height,
    version: header.version,
    versionHex: header.version.toString(16).padStart(8, '0'),
    merkleroot: toDisplayHex(header.merkleRoot),
    ...headerFields(entry),
    ...links(chain, entry),
  };
}

/** getblock's object: verbosity 1 lists txids, 2 (or more) the transactions themselves. */
export function blockView(chain: Chain, entry: ChainEntry, verbosity: number): Record<string, unknown> {
  const { header, transactions } = entry.block;
  return {
    hash: entry.hash,
    confirmations: chain.height - entry.height + 1,
    strippedsize: entry.raw.length,
    size: entry.raw.length,
    weight: entry.raw.length * 4,
    height: entry.height,
    version: header.version,
    versionHex: header.version.toString(16).padStart(8, '0'),
    merkleroot: toDisplayHex(header.merkleRoot),
    tx: transactions.map((tx) => (verbosity >= 2 ? transactionView(tx) : toDisplayHex(txid(tx)))),
    ...headerFields(entry),
    ...links(chain, entry),
  };
}

export function chainInfoView(chain: Chain, sizeOnDisk: number): Record<string, unknown> {
  const { tip } = chain;
  return {
    chain: 'regtest',
    blocks: tip.height,
    headers: tip.height,
    bestblockhash: tip.hash,
    difficulty: difficulty(tip.block.header.bits),
    mediantime: tip.medianTime,
    verificationprogress: 1,
    initialblockdownload: false,
    chainwork: tip.chainwork.toString(16).padStart(64, '0'),
    size_on_disk: sizeOnDisk,
    pruned: false,
    warnings: '',
  };
}
