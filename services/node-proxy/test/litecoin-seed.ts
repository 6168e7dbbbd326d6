import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * A private Litecoin network of one node: litecoind on regtest, listening for peers on loopback,
 * which a test fills with blocks and hosted nodes sync from. Its data stays between `start` and
 * `stop`, so a test can take the network away and bring it back with the same chain.
 */
export class LitecoinSeed {
  private child: ChildProcess | undefined;

  private constructor(
    private readonly litecoind: string,
    private readonly dataDir: string,
    /** Where peers reach it: `127.0.0.1:<port>`. */
    readonly p2pPort: number,
    private readonly rpcPort: number,
  ) {}

  static async create(litecoind: string): Promise<LitecoinSeed> {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'litecoin-seed-'));
    return new LitecoinSeed(litecoind, dataDir, await freePortOutsideEphemeralRange(), await freePort());
  }

  get address(): string {
    return `127.0.0.1:${this.p2pPort}`;
  }

  /** Starts litecoind and waits until its RPC answers. */
  async start(): Promise<void> {
    this.child = spawn(
      this.litecoind,
      [
        '-regtest',
        `-datadir=${this.dataDir}`,
        ...['-listen=1', '-bind=127.0.0.1', `-port=${this.p2pPort}`, '-dnsseed=0', '-discover=0'],
        ...['-server', '-rpcbind=127.0.0.1', '-rpcallowip=127.0.0.1', `-rpcport=${this.rpcPort}`, '-rpcuser=seed', '-rpcpassword=seed'],
        ...['-disablewallet', '-printtoconsole=0', '-nodebuglogfile'],
      ],
      { stdio: 'ignore' },
    );
    const deadline = Date.now() + 30_000;
    for (;;) {
      try {
        await this.rpc('getblockcount');
        return;
      } catch (error) {
        if (Date.now() > deadline) throw error;
        await sleep(100);
      }
    }
  }

  /** Stops litecoind cleanly (its chain flushed to disk). */
  async stop(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null) return;
    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    await exited;
    this.child = undefined;
  }

  async remove(): Promise<void> {
    await this.stop();
    await rm(this.dataDir, { recursive: true, force: true });
  }

  /** Mines `count` blocks, their coinbase to an anyone-can-spend script; the chain's height after. */
  async mine(count: number): Promise<number> {
    await this.rpc('generatetodescriptor', [count, 'raw(51)']);
    return (await this.rpc('getblockcount')) as number;
  }

  /** The txid of the coinbase transaction of the block at `height`. */
  async coinbaseTxid(height: number): Promise<string> {
    const hash = (await this.rpc('getblockhash', [height])) as string;
    return ((await this.rpc('getblock', [hash, 1])) as { tx: string[] }).tx[0]!;
  }

  async rpc(method: string, params: unknown[] = []): Promise<unknown> {
    const response = await fetch(`http://127.0.0.1:${this.rpcPort}/`, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from('seed:seed').toString('base64')}`, 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '1.0', id: 'seed', method, params }),
    });
    const answer = (await response.json()) as { result: unknown; error: { message: string } | null };
    if (answer.error) throw new Error(`${method}: ${answer.error.message}`);
    return answer.result;
  }
}

async function freePort(): Promise<number> {
  return listenOnce(0);
}

/**
 * A free port below Linux's ephemeral range (32768–60999), for the seed's P2P port. While the seed
 * is stopped nothing may take that port: another suite's litecoind, given an ephemeral port, would
 * answer the nodes told to follow the seed. A listener holding the port is no answer either: each
 * connection it accepts counts as a peer until it is dropped.
 */
async function freePortOutsideEphemeralRange(): Promise<number> {
  for (;;) {
    const candidate = 20_000 + Math.floor(Math.random() * 12_000);
    try {
      return await listenOnce(candidate);
    } catch {
      // taken: try another
    }
  }
}

async function listenOnce(port: number): Promise<number> {
  const server = createServer().listen(port, '127.0.0.1');
  await Promise.race([once(server, 'listening'), once(server, 'error').then(([error]) => Promise.reject(error as Error))]);
  const address = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return address.port;
}
