import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CHAINS, makeRpcAuth, startDevChain } from '../src';
import type { RpcTarget } from './bitcoin-rpc-conformance';
import { describeBitcoinRpc } from './bitcoin-rpc-conformance';
import { call } from './rpc-client';

for (const chain of CHAINS) {
  describeBitcoinRpc(`dev chain (${chain})`, async () => {
    const datadir = mkdtempSync(join(tmpdir(), 'dev-chain-'));
    const node = await startDevChain({
      chain,
      datadir,
      host: '127.0.0.1',
      port: 0,
      rpcauth: [makeRpcAuth('alice', 'secret')],
      rest: true,
      blockIntervalSeconds: 0,
    });
    const target: RpcTarget = {
      url: node.url,
      user: 'alice',
      password: 'secret',
      mine: async (blocks) => {
        await call(target, 'generatetodescriptor', [blocks, 'raw(51)']);
      },
      stop: async () => {
        await node.stop();
        rmSync(datadir, { recursive: true, force: true });
      },
    };
    return target;
  });
}
