import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { NodeRoute } from '@cloud/bus';
import { NODE_RPC_USER, nodeRpcPassword } from '@cloud/node-rpc-auth';
import { findOnPath } from '@cloud/nodes/testing';

/** anvil from the `@foundry-rs/anvil-<platform>-<arch>` package (as the nodes service finds it), else on PATH. */
export function anvilBinary(): string | undefined {
  const arch = process.arch === 'x64' ? 'amd64' : process.arch;
  try {
    return path.join(path.dirname(require.resolve(`@foundry-rs/anvil-${process.platform}-${arch}/package.json`)), 'bin', 'anvil');
  } catch {
    return findOnPath('anvil');
  }
}

export const litecoindBinary = (): string | undefined => process.env.LITECOIND_PATH || findOnPath('litecoind');

/**
 * A real node process a test drives itself, on a port and a data folder of its own that outlive a
 * kill, so it can be SIGKILLed and started again as the same node (anvil keeps its chain in a
 * state file dumped every second, litecoind in its folder). The proxy logs in to it as to a
 * hosted node: litecoind takes the node's derived RPC password; anvil takes any login.
 */
export class ChainProcess {
  private child: ChildProcess | undefined;

  private constructor(
    readonly kind: 'anvil' | 'litecoind',
    readonly nodeId: string,
    private readonly binary: string,
    private readonly dataDir: string,
    readonly port: number,
    private readonly password: string,
  ) {}

  static async create(kind: 'anvil' | 'litecoind', nodeId: string, key: Buffer): Promise<ChainProcess> {
    const binary = kind === 'anvil' ? anvilBinary() : litecoindBinary();
    if (!binary) throw new Error(`${kind} is not installed`);
    const dataDir = await mkdtemp(path.join(os.tmpdir(), `${kind}-`));
    return new ChainProcess(kind, nodeId, binary, dataDir, await freePort(), nodeRpcPassword(key, nodeId));
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** The node's route as the nodes service would publish it (running, at `upstream`). */
  route(revision = 1, changes: Partial<NodeRoute> = {}): NodeRoute {
    const image = this.kind === 'anvil' ? 'eth' : 'ltc';
    return {
      nodeId: this.nodeId,
      userId: 'user-pools',
      image,
      chain: image,
      revision,
      state: 'running',
      basic: { user: `u-${this.nodeId}`, passwordSha256: 'a'.repeat(64) },
      upstream: this.url,
      dev: true,
      ...changes,
    };
  }

  /** Starts the process and waits until its RPC answers. */
  async start(): Promise<void> {
    const args =
      this.kind === 'anvil'
        ? ['--host', '127.0.0.1', '--port', String(this.port), '--silent', '--state', path.join(this.dataDir, 'state.json'), '--state-interval', '1']
        : [
            '-regtest',
            `-datadir=${this.dataDir}`,
            ...['-server', '-listen=0', '-rest', '-disablewallet', '-printtoconsole=0', '-nodebuglogfile'],
            ...['-rpcbind=127.0.0.1', '-rpcallowip=127.0.0.1', `-rpcport=${this.port}`, `-rpcuser=${NODE_RPC_USER}`, `-rpcpassword=${this.password}`],
          ];
    this.child = spawn(this.binary, args, { stdio: 'ignore' });
    const deadline = Date.now() + 30_000;
    for (;;) {
      try {
        await this.rpc(this.kind === 'anvil' ? 'eth_blockNumber' : 'getblockcount');
        return;
      } catch (error) {
        if (Date.now() > deadline || this.child.exitCode !== null) throw error;
        await sleep(100);
      }
    }
  }

  /**
   * Writes litecoind's chain state to disk (gettxoutsetinfo flushes it), so a SIGKILL right after
   * does not take the node back to its last periodic flush. anvil dumps its state every second.
   */
  async flush(): Promise<void> {
    if (this.kind === 'litecoind') await this.rpc('gettxoutsetinfo');
  }

  /** SIGKILL, as a crash: no clean shutdown. */
  async kill(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = once(child, 'exit');
    child.kill('SIGKILL');
    await exited;
  }

  async remove(): Promise<void> {
    await this.kill();
    await rm(this.dataDir, { recursive: true, force: true });
  }

  /**
   * Mines `count` blocks; the height after. litecoind pays them to `script` (anyone can spend
   * either): another one makes other blocks than those just invalidated.
   */
  async mine(count: number, script = 'raw(51)'): Promise<number> {
    if (this.kind === 'anvil') {
      await this.rpc('anvil_mine', [`0x${count.toString(16)}`]);
      return Number(await this.rpc('eth_blockNumber'));
    }
    await this.rpc('generatetodescriptor', [count, script]);
    return (await this.rpc('getblockcount')) as number;
  }

  async height(): Promise<number> {
    return this.kind === 'anvil' ? Number(await this.rpc('eth_blockNumber')) : ((await this.rpc('getblockcount')) as number);
  }

  /** A call straight to the node, past the proxy. */
  async rpc(method: string, params: unknown[] = []): Promise<unknown> {
    const response = await fetch(`${this.url}/`, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from(`${NODE_RPC_USER}:${this.password}`).toString('base64')}`, 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: this.kind === 'anvil' ? '2.0' : '1.0', id: 'test', method, params }),
    });
    const answer = (await response.json()) as { result: unknown; error?: { message: string } | null };
    if (answer.error) throw new Error(`${method}: ${answer.error.message}`);
    return answer.result;
  }
}

/**
 * A free port below Linux's ephemeral range (32768–60999): while the process is killed, no
 * outgoing connection of another test may take its port before it comes back.
 */
async function freePort(): Promise<number> {
  for (;;) {
    const server = createServer().listen(20_000 + Math.floor(Math.random() * 12_000), '127.0.0.1');
    try {
      await Promise.race([once(server, 'listening'), once(server, 'error').then(([error]) => Promise.reject(error as Error))]);
    } catch {
      continue; // taken: try another
    }
    const { port } = server.address() as AddressInfo;
    await new Promise((resolve) => server.close(resolve));
    return port;
  }
}

/** A pool route over `members`, as the nodes service publishes it. */
export function poolRoute(poolId: string, image: 'eth' | 'ltc', members: string[], revision = 1, maxLagBlocks = 5): NodeRoute {
  return {
    nodeId: poolId,
    userId: 'user-pools',
    image,
    chain: image,
    revision,
    state: 'running',
    basic: { user: `u-${poolId}`, passwordSha256: 'b'.repeat(64) },
    upstream: null,
    dev: true,
    pool: { members, maxLagBlocks },
  };
}
