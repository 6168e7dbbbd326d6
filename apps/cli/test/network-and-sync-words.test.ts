import { Command } from 'commander';
import type { ChainOption, Node, Validator } from '@cloud/sdk';
import { registerNodeCommands } from '../src/commands/nodes';
import { registerValidatorCommands } from '../src/commands/validators';
import type { Context } from '../src/context';
import { captureOutput } from './support/capture';

// What `cloud chains`, `nodes list|info` and `validators list|info` say of a node's network and
// sync, from records as the API answers them (no platform): the network in the API's words
// (networkLabel: a dev chain never says mainnet), a stopped node's last reading as such, a public
// node without peers with what to check, and a new validator as starting.

const HOUR = 3_600_000;
const ID = 'node-00000000-0000-4000-8000-000000000001';
const createdAt = new Date(Date.now() - HOUR).toISOString();
const checkedAt = '2026-11-27T10:05:00.000Z';
const endpoints = { jsonRpc: 'https://127.0.0.1:9332/' };

function node(overrides: Partial<Node>): Node {
  return {
    id: ID,
    name: null,
    user: 'user-1',
    image: 'ltc',
    chain: 'ltc',
    network: 'mainnet',
    networkLabel: 'ltc dev chain (regtest)',
    software: 'litecoin-core-0.21.2.1',
    large: false,
    jwt: false,
    dev: true,
    txindex: false,
    state: 'running',
    sync: { height: 39, bestKnownHeight: 39, progress: 1, peers: 0, syncing: false, checkedAt },
    stateReason: null,
    address: `${ID}.nodes.localhost`,
    ports: { jsonRpc: 9332, rest: 9332 },
    endpoints,
    access: { ipAllowlist: [], originAllowlist: [], refusedMethods: [], ratePerSecond: null },
    createdAt,
    updatedAt: createdAt,
    ...overrides,
  } as Node;
}

const validator = {
  nodeId: 'node-2',
  chainNodeId: 'NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg',
  chain: 'avalanche',
  network: 'fuji',
  dev: true,
  networkLabel: 'avalanche dev chain (simulated P-chain)',
  image: 'avalanchefuji',
  state: 'provisioning',
  stateReason: null,
  address: 'node-2.nodes.localhost',
  ports: { jsonRpc: 9650, management: 8080 },
  endpoints: { jsonRpc: 'https://127.0.0.1:9650/', management: 'https://127.0.0.1:8080/' },
  nodeUser: 'u0123456789abcdef',
  createdAt,
  registration: { status: 'starting', checkedAt, reason: 'its node is provisioning; the P-chain is read once it runs' },
} as Validator;

const chains = [
  { image: 'ltc', chain: 'ltc', network: 'mainnet', networkLabel: 'ltc dev chain (regtest)', software: 'litecoin-core-0.21.2.1', dev: true, pruned: false },
  { image: 'btctestnet', chain: 'btc', network: 'testnet', networkLabel: 'btc testnet', software: 'bitcoin-core-28.1.0', dev: false, pruned: true },
] as ChainOption[];

async function cloud(args: string[], nodes: Node[]): Promise<string> {
  const { o, out } = captureOutput();
  const api = {
    nodes: { chains: async () => chains, list: async () => nodes, get: async (id: string) => nodes.find((each) => each.id === id)! },
    staking: { listAll: async () => [validator], find: async () => validator },
  };
  const ctx = { output: o, cloud: () => api, nodeCredentials: () => undefined, settings: {} } as unknown as Context;
  const program = new Command().exitOverride();
  registerNodeCommands(program, () => ctx);
  registerValidatorCommands(program, () => ctx);
  await program.parseAsync(args, { from: 'user' });
  return out.text;
}

describe('network words', () => {
  it('cloud chains: a dev chain says dev chain (regtest), never mainnet; a real network its name', async () => {
    const table = await cloud(['chains'], []);
    expect(table).toMatch(/^IMAGE\s+NETWORK\s+SOFTWARE\n/);
    expect(table).toMatch(/^ltc\s+ltc dev chain \(regtest\)\s+litecoin-core-0\.21\.2\.1$/m);
    expect(table).toMatch(/^btctestnet\s+btc testnet, pruned\s+bitcoin-core-28\.1\.0$/m);
    expect(table).not.toMatch(/mainnet/);
  });

  it('nodes list and info: the network label, not the image network', async () => {
    const list = await cloud(['nodes', 'list'], [node({})]);
    expect(list).toMatch(new RegExp(`^${ID}\\s+.*ltc dev chain \\(regtest\\)`, 'm'));
    expect(list).not.toMatch(/mainnet/);
    const info = await cloud(['nodes', 'info', ID], [node({})]);
    expect(info).toMatch(/^Network:\s+ltc dev chain \(regtest\)$/m);
    expect(info).toMatch(/^Image:\s+ltc \(litecoin-core-0\.21\.2\.1\)$/m);
    expect(info).not.toMatch(/mainnet/);
  });

  it('validators list and info: the dev marker, and a new validator as starting', async () => {
    const list = await cloud(['validators', 'list'], []);
    expect(list).toMatch(/^node-2\s+avalanche dev chain \(simulated P-chain\)\s+NodeID-\S+\s+provisioning\s+starting$/m);
    const info = await cloud(['validators', 'info', 'node-2'], []);
    expect(info).toMatch(/^Network:\s+avalanche dev chain \(simulated P-chain\)$/m);
    expect(info).toMatch(/^Registration:\s+starting \(its node is provisioning; the P-chain is read once it runs\)$/m);
    expect(info).not.toMatch(/fuji|Unknown|could not be read/);
  });
});

describe('sync words', () => {
  it('a running node: live progress', async () => {
    expect(await cloud(['nodes', 'info', ID], [node({})])).toMatch(/^Sync:\s+synced \[#{20}\] 100\.0% height 39\/39, 0 peers$/m);
  });

  it('a stopped node: its last known height and as of when, never a live-looking 100 %', async () => {
    const info = await cloud(['nodes', 'info', ID], [node({ state: 'stopped' })]);
    expect(info).toMatch(new RegExp(`^Sync:\\s+stopped: last known block 39 of 39, as of ${checkedAt.replace(/\./g, '\\.')}$`, 'm'));
    expect(info).not.toMatch(/100/);
  });

  it('a public node with no peers for a while: says it cannot sync, and what to check', async () => {
    const stuck = node({
      dev: false,
      networkLabel: 'ltc mainnet',
      state: 'syncing',
      sync: { height: 0, bestKnownHeight: 0, progress: 0, peers: 0, syncing: true, checkedAt },
    });
    const info = await cloud(['nodes', 'info', ID], [stuck]);
    expect(info).toMatch(/^Peers:\s+no peers: it cannot sync until it finds some \(check LTC_PEERS \/ the network\)$/m);
    expect(await cloud(['nodes', 'list'], [stuck])).toMatch(new RegExp(`^${ID}\\s+.*syncing 0\\.0% \\(no peers\\)`, 'm'));
    // A dev chain has no peers by design: nothing to tell.
    expect(await cloud(['nodes', 'info', ID], [node({})])).not.toMatch(/^Peers:/m);
  });
});
