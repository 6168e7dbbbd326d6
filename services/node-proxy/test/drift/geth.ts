import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { waitUntil } from '../harness';

async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * geth in dev mode with every API module on its HTTP endpoint (the platform runs no geth: this is
 * for the drift check only, so it serves the most a geth node could), on free ports.
 */
export async function startGethDev(binary: string): Promise<{ url: string; stop(): Promise<void> }> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'geth-drift-'));
  const [http, auth] = [await freePort(), await freePort()];
  const child = spawn(
    binary,
    [
      '--dev',
      `--datadir=${dataDir}`,
      ...['--http', '--http.addr=127.0.0.1', `--http.port=${http}`, '--http.api=admin,debug,eth,miner,net,personal,txpool,web3'],
      // No IPC file, no peers, and the Engine API on a free port rather than the fixed 8551.
      ...['--ipcdisable', '--nodiscover', '--maxpeers=0', '--port=0', `--authrpc.port=${auth}`],
    ],
    { stdio: 'ignore' },
  );
  const exited = once(child, 'exit');
  const url = `http://127.0.0.1:${http}`;
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await waitUntil(
      'geth to answer',
      async () => {
        const answer = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{"jsonrpc":"2.0","id":1,"method":"web3_clientVersion","params":[]}',
        }).catch(() => undefined);
        return answer?.ok === true;
      },
      60_000,
      200,
    );
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, stop };
}
