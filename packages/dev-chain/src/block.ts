import { createHash } from 'node:crypto';

/** A coinbase input: the null prevout (32 zero bytes, index 0xffffffff) is implied. */
export interface CoinbaseInput {
  scriptSig: Buffer;
  sequence: number;
}

export interface TxOutput {
  /** In satoshis. */
  value: bigint;
  scriptPubKey: Buffer;
}

/** A transaction without witness data: the only kind this chain makes is a coinbase. */
export interface Transaction {
  version: number;
  inputs: CoinbaseInput[];
  outputs: TxOutput[];
  lockTime: number;
}

export interface BlockHeader {
  version: number;
  /** Internal byte order, as serialized (the reverse of the displayed hex). */
  prevHash: Buffer;
  merkleRoot: Buffer;
  time: number;
  bits: number;
  nonce: number;
}

export interface Block {
  header: BlockHeader;
  transactions: Transaction[];
}

const NULL_PREVOUT = Buffer.concat([Buffer.alloc(32), Buffer.from('ffffffff', 'hex')]);

export function sha256d(data: Uint8Array): Buffer {
  return createHash('sha256').update(createHash('sha256').update(data).digest()).digest();
}

/** Bitcoin shows hashes as the byte-reversed hex of their internal order. */
export function toDisplayHex(hash: Buffer): string {
  return Buffer.from(hash).reverse().toString('hex');
}

export function fromDisplayHex(hex: string): Buffer {
  return Buffer.from(hex, 'hex').reverse();
}

class Writer {
  private readonly chunks: Buffer[] = [];

  u32(value: number): this {
    const buffer = Buffer.alloc(4);
    buffer.writeUInt32LE(value >>> 0);
    return this.bytes(buffer);
  }

  u64(value: bigint): this {
    const buffer = Buffer.alloc(8);
    buffer.writeBigUInt64LE(value);
    return this.bytes(buffer);
  }

  /** Bitcoin's CompactSize. */
  varint(value: number): this {
    if (value < 0xfd) return this.bytes(Buffer.from([value]));
    const buffer = Buffer.alloc(value <= 0xffff ? 3 : 5);
    if (value <= 0xffff) {
      buffer[0] = 0xfd;
      buffer.writeUInt16LE(value, 1);
    } else {
      buffer[0] = 0xfe;
      buffer.writeUInt32LE(value, 1);
    }
    return this.bytes(buffer);
  }

  bytes(buffer: Buffer): this {
    this.chunks.push(buffer);
    return this;
  }

  varbytes(buffer: Buffer): this {
    return this.varint(buffer.length).bytes(buffer);
  }

  done(): Buffer {
    return Buffer.concat(this.chunks);
  }
}

class Reader {
  private offset = 0;

  constructor(private readonly buffer: Buffer) {}

  bytes(length: number): Buffer {
    if (this.offset + length > this.buffer.length) throw new Error('unexpected end of data');
    const slice = this.buffer.subarray(this.offset, this.offset + length);
    this.offset += length;
    return Buffer.from(slice);
  }

  u32(): number {
    return this.bytes(4).readUInt32LE();
  }

  u64(): bigint {
    return this.bytes(8).readBigUInt64LE();
  }

  varint(): number {
    const first = this.bytes(1)[0];
    if (first === 0xfd) return this.bytes(2).readUInt16LE();
    if (first === 0xfe) return this.u32();
    if (first === 0xff) throw new Error('CompactSize too large');
    return first as number;
  }

  varbytes(): Buffer {
    return this.bytes(this.varint());
  }

  end(): void {
    if (this.offset !== this.buffer.length) throw new Error('trailing data');
  }
}

export function serializeHeader(header: BlockHeader): Buffer {
  return new Writer().u32(header.version).bytes(header.prevHash).bytes(header.merkleRoot).u32(header.time).u32(header.bits).u32(header.nonce).done();
}

function writeTransaction(writer: Writer, tx: Transaction): Writer {
  writer.u32(tx.version).varint(tx.inputs.length);
  for (const input of tx.inputs) writer.bytes(NULL_PREVOUT).varbytes(input.scriptSig).u32(input.sequence);
  writer.varint(tx.outputs.length);
  for (const output of tx.outputs) writer.u64(output.value).varbytes(output.scriptPubKey);
  return writer.u32(tx.lockTime);
}

function readTransaction(reader: Reader): Transaction {
  const version = reader.u32();
  const inputs = Array.from({ length: reader.varint() }, () => {
    if (!reader.bytes(36).equals(NULL_PREVOUT)) throw new Error('only coinbase inputs are supported');
    return { scriptSig: reader.varbytes(), sequence: reader.u32() };
  });
  const outputs = Array.from({ length: reader.varint() }, () => ({ value: reader.u64(), scriptPubKey: reader.varbytes() }));
  return { version, inputs, outputs, lockTime: reader.u32() };
}

export function serializeTransaction(tx: Transaction): Buffer {
  return writeTransaction(new Writer(), tx).done();
}

export function txid(tx: Transaction): Buffer {
  return sha256d(serializeTransaction(tx));
}

export function serializeBlock(block: Block): Buffer {
  const writer = new Writer().bytes(serializeHeader(block.header)).varint(block.transactions.length);
  for (const tx of block.transactions) writeTransaction(writer, tx);
  return writer.done();
}

export function parseBlock(raw: Buffer): Block {
  const reader = new Reader(raw);
  const header: BlockHeader = {
    version: reader.u32(),
    prevHash: reader.bytes(32),
    merkleRoot: reader.bytes(32),
    time: reader.u32(),
    bits: reader.u32(),
    nonce: reader.u32(),
  };
  const transactions = Array.from({ length: reader.varint() }, () => readTransaction(reader));
  reader.end();
  return { header, transactions };
}

export function blockHash(header: BlockHeader): Buffer {
  return sha256d(serializeHeader(header));
}

/** Bitcoin's merkle tree: pairs hashed with double-SHA256, an odd last node paired with itself. */
export function merkleRoot(txids: Buffer[]): Buffer {
  if (txids.length === 0) throw new Error('a block needs at least one transaction');
  let level = txids;
  while (level.length > 1) {
    const next: Buffer[] = [];
    for (let i = 0; i < level.length; i += 2) {
      const left = level[i] as Buffer;
      next.push(sha256d(Buffer.concat([left, level[i + 1] ?? left])));
    }
    level = next;
  }
  return level[0] as Buffer;
}

/** A script push of a number as Core's `CScript() << n` writes it: OP_0/OP_1..OP_16, else minimal CScriptNum. */
export function scriptNumber(value: number): Buffer {
  if (value === 0) return Buffer.from([0x00]);
  if (value >= 1 && value <= 16) return Buffer.from([0x50 + value]);
  const bytes: number[] = [];
  for (let rest = value; rest > 0; rest = Math.floor(rest / 256)) bytes.push(rest % 256);
  if ((bytes[bytes.length - 1] as number) & 0x80) bytes.push(0);
  return Buffer.from([bytes.length, ...bytes]);
}

/** Core's compact target: a 3-byte mantissa and a byte exponent. */
export function bitsToTarget(bits: number): bigint {
  const exponent = bits >>> 24;
  const mantissa = BigInt(bits & 0x007fffff);
  return exponent <= 3 ? mantissa >> BigInt(8 * (3 - exponent)) : mantissa << BigInt(8 * (exponent - 3));
}

/** The expected number of hashes to meet the target, as Core's GetBlockProof. */
export function blockWork(bits: number): bigint {
  return (1n << 256n) / (bitsToTarget(bits) + 1n);
}

/**
 * Core's GetDifficulty: the target of difficulty 1 (0x1d00ffff) over this one, in doubles; then
 * rounded to the 16 significant digits Core's JSON writer prints, so that a client reads the very
 * number it reads from Core (4.656542373906925e-10 on regtest).
 */
export function difficulty(bits: number): number {
  let shift = (bits >>> 24) & 0xff;
  let value = 0x0000ffff / (bits & 0x00ffffff);
  for (; shift < 29; shift += 1) value *= 256;
  for (; shift > 29; shift -= 1) value /= 256;
  return Number(value.toPrecision(16));
}

/** Whether a proof-of-work hash (internal byte order, i.e. little-endian) meets the target. */
export function meetsTarget(powHash: Buffer, bits: number): boolean {
  return BigInt(`0x${toDisplayHex(powHash)}`) <= bitsToTarget(bits);
}
