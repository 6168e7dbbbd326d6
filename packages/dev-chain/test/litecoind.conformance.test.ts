import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { accessSync, constants, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { makeRpcAuth } from '../src';
import type { RpcTarget } from './bitcoin-rpc-conformance';
import { describeBitcoinRpc } from './bitcoin-rpc-conformance';
import { call, post } from './rpc-client';

/**
 * The conformance suite against the real Litecoin Core (0.21 on this project's machines): the
 * reference the dev chain is held to. Mining uses the descriptor `raw(51)` (an OP_TRUE output),
 * which 0.21 takes without a wallet; MWEB needs nothing, as it is not active on a fresh regtest chain.
 */
function findLitecoind(): string | undefined {
  const candidates = process.env.LITECOIND_PATH ? [process.env.LITECOIND_PATH] : (process.env.PATH ?? '').split(delimiter).map((dir) => join(dir, 'litecoind'));
  return candidates.find((path) => {
    try {
      accessSync(path, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function stopChild(child: ChildProcess, exited: Promise<unknown>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const timedOut = await Promise.race([exited.then(() => false), sleep(30_000, true, { ref: false })]);
  if (timedOut) {
    child.kill('SIGKILL');
    await exited;
  }
}

async function startLitecoind(path: string): Promise<RpcTarget> {
  const datadir = mkdtempSync(join(tmpdir(), 'litecoind-'));
  const [rpcPort, p2pPort] = [await freePort(), await freePort()];
  const user = 'conformance';
  const password = randomBytes(16).toString('hex');
  const child = spawn(
    path,
    [
      '-regtest',
      `-datadir=${datadir}`,
      '-rpcbind=127.0.0.1',
      '-rpcallowip=127.0.0.1',
      `-rpcport=${rpcPort}`,
      `-port=${p2pPort}`,
      '-listen=0',
      `-rpcauth=${makeRpcAuth(user, password)}`,
      '-rest',
      '-disablewallet',
      '-server',
      '-printtoconsole=0',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const target: RpcTarget = {
    url: `http://127.0.0.1:${rpcPort}`,
    user,
    password,
    mine: async (blocks) => {
      await call(target, 'generatetodescriptor', [blocks, 'raw(51)']);
    },
    stop: async () => {
      await stopChild(child, exited);
      rmSync(datadir, { recursive: true, force: true });
    },
  };

  // Until the RPC server is up, and past its warm-up (-28 "Loading block index...").
  for (const deadline = Date.now() + 60_000; ; await sleep(100)) {
    if (child.exitCode !== null || child.signalCode !== null || Date.now() > deadline) {
      const log = join(datadir, 'regtest', 'debug.log');
      const tail = existsSync(log) ? readFileSync(log, 'utf8').split('\n').slice(-20).join('\n') : '';
      await target.stop();
      throw new Error(`litecoind did not come up (exit ${child.exitCode ?? child.signalCode}):\n${stderr}\n${tail}`);
    }
    const ready = await post(target, { method: 'getblockcount' }).then(
      (reply) => reply.status === 200,
      () => false,
    );
    if (ready) return target;
  }
}

const litecoind = findLitecoind();
if (litecoind) {
  describeBitcoinRpc(`litecoind (${litecoind})`, () => startLitecoind(litecoind));
} else if (process.env.CI) {
  describe('Bitcoin RPC conformance: litecoind', () => {
    it('runs against the real litecoind', () => {
      throw new Error('litecoind was not found (neither LITECOIND_PATH nor PATH has it): CI must hold the dev chain to the real daemon');
    });
  });
} else {
  process.stderr.write('litecoind was not found (LITECOIND_PATH or PATH): skipping the conformance suite against it\n');
  describe.skip('Bitcoin RPC conformance: litecoind', () => {
    it('runs against the real litecoind', () => undefined);
  });
}
