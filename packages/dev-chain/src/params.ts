import { scryptSync } from 'node:crypto';
import type { Block, Transaction } from './block';
import { scriptNumber, sha256d, txid } from './block';

export const CHAINS = ['btc', 'bch', 'ltc'] as const;
export type ChainName = (typeof CHAINS)[number];

export interface ChainParams {
  name: ChainName;
  genesis: Block;
  /** The hash checked against the target: double-SHA256 of the header, or scrypt for Litecoin. */
  powHash(header: Buffer): Buffer;
}

/** Regtest's minimum difficulty, the same on all three chains. */
export const REGTEST_BITS = 0x207fffff;
/** BIP9's version bits with no deployment signalled, as Core mines on regtest. */
export const BLOCK_VERSION = 0x20000000;
const OP_TRUE = 0x51;
const OP_CHECKSIG = 0xac;
const COIN = 100_000_000n;
const REGTEST_HALVING_INTERVAL = 150;

/** The genesis coinbase of Satoshi's chain and its forks: a headline in the script, 50 coins to a key. */
function genesisCoinbase(headline: string, pubkey: string): Transaction {
  const message = Buffer.from(headline, 'utf8');
  const key = Buffer.from(pubkey, 'hex');
  return {
    version: 1,
    inputs: [
      {
        scriptSig: Buffer.concat([Buffer.from('04ffff001d0104', 'hex'), Buffer.from([message.length]), message]),
        sequence: 0xffffffff,
      },
    ],
    outputs: [{ value: 50n * COIN, scriptPubKey: Buffer.concat([Buffer.from([key.length]), key, Buffer.from([OP_CHECKSIG])]) }],
    lockTime: 0,
  };
}

function genesisBlock(coinbase: Transaction, nonce: number): Block {
  return {
    header: {
      version: 1,
      prevHash: Buffer.alloc(32),
      merkleRoot: txid(coinbase),
      time: 1296688602,
      bits: REGTEST_BITS,
      nonce,
    },
    transactions: [coinbase],
  };
}

// The real regtest genesis blocks, so a block explorer or client that knows them sees the chain it
// expects (Bitcoin Cash kept Bitcoin's).
const bitcoinGenesis = genesisBlock(
  genesisCoinbase(
    'The Times 03/Jan/2009 Chancellor on brink of second bailout for banks',
    '04678afdb0fe5548271967f1a67130b7105cd6a828e03909a67962e0ea1f61deb649f6bc3f4cef38c4f35504e51ec112de5c384df7ba0b8d578a4c702b6bf11d5f',
  ),
  2,
);
const litecoinGenesis = genesisBlock(
  genesisCoinbase(
    'NY Times 05/Oct/2011 Steve Jobs, Apple’s Visionary, Dies at 56',
    '040184710fa689ad5023690c80f3a49c8f13f8d45b8c857fbcbc8bc4a8e4d3eb4b10f4d4604fa08dce601aaf0f470216fe1b51850b4acf21b179c45070ac7b03a9',
  ),
  0,
);

export const CHAIN_PARAMS: Record<ChainName, ChainParams> = {
  btc: { name: 'btc', genesis: bitcoinGenesis, powHash: sha256d },
  bch: { name: 'bch', genesis: bitcoinGenesis, powHash: sha256d },
  // Litecoin's proof of work is scrypt(N=1024, r=1, p=1) with the header as both password and salt.
  ltc: { name: 'ltc', genesis: litecoinGenesis, powHash: (header) => scryptSync(header, header, 32, { N: 1024, r: 1, p: 1 }) },
};

/** The block reward on regtest: 50 coins, halved every 150 blocks. */
export function subsidy(height: number): bigint {
  const halvings = Math.floor(height / REGTEST_HALVING_INTERVAL);
  return halvings >= 64 ? 0n : (50n * COIN) >> BigInt(halvings);
}

/**
 * The coinbase Core's miner would build at this height: the height first in the script (BIP34),
 * then an extra nonce as `CScript() << CScriptNum(1)` writes it, and the reward to OP_TRUE, which
 * anyone can spend.
 */
export function coinbaseTransaction(height: number): Transaction {
  return {
    version: 2,
    inputs: [{ scriptSig: Buffer.concat([scriptNumber(height), Buffer.from([0x01, 0x01])]), sequence: 0xffffffff }],
    outputs: [{ value: subsidy(height), scriptPubKey: Buffer.from([OP_TRUE]) }],
    lockTime: 0,
  };
}
