// Section `latency`: from a block being on the node to its event at the receiver, on a dev chain
// mining a block every second (the whole platform in this process, `npm start`'s way, with
// LOCAL_BLOCK_INTERVAL_SECONDS=1: anvil --block-time 1). anvil's block times are whole seconds,
// so the bench reads the node's head itself every POLL_MS over the node's internal login and takes
// the first time it saw each height; latency = the receiver's arrival − that time (the poll adds
// up to POLL_MS/2 on average to what it reports as the node's moment: it is counted against us).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { startTestPlatform, type TestPlatform } from '@cloud/all-in-one/testing';
import { loadNodeRpcKey, nodeRpcAuthorization } from '@cloud/node-rpc-auth';
import { BenchReceiver, quantile } from './receiver';

export interface LatencyFigures {
  blocks: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  pollMs: number;
  headIntervalMs: number;
}

/** A JSON call that must answer 2xx; its parsed body. */
async function json<T>(url: string, init: RequestInit = {}): Promise<T> {
  const response = await fetch(url, { ...init, headers: { 'content-type': 'application/json', ...init.headers } });
  const text = await response.text();
  if (!response.ok) throw new Error(`${init.method ?? 'GET'} ${url}: ${response.status} ${text.slice(0, 300)}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

/** A verified user's client token (what calls the nodes and streams APIs). */
async function clientToken(platform: TestPlatform): Promise<string> {
  const accounts = platform.urls.accounts!;
  const email = `bench-streams-${Date.now()}@example.com`;
  const password = 'correct horse battery 42';
  await json(`${accounts}/users`, { method: 'POST', body: JSON.stringify({ email, password, displayName: 'Bench' }) });
  const { userId, token } = await platform.verificationFor(email);
  await json(`${accounts}/users/${userId}/token/${token}`, { method: 'PUT' });
  const basic = `Basic ${Buffer.from(`${email}:${password}`).toString('base64')}`;
  const { accessToken } = await json<{ accessToken: string }>(`${accounts}/auth`, { method: 'POST', headers: { authorization: basic } });
  const key = await json<{ clientId: string; clientSecret: string }>(`${accounts}/users/me/client-keys`, {
    method: 'POST',
    headers: { authorization: `Bearer ${accessToken}` },
  });
  const tokens = await json<{ accessToken: string }>(`${accounts}/auth/token`, {
    method: 'POST',
    body: JSON.stringify({ grantType: 'clientCredentials', clientId: key.clientId, clientSecret: key.clientSecret }),
  });
  return tokens.accessToken;
}

async function until(what: string, check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export async function latencySection(seconds: number, pollMs: number, progress: (line: string) => void): Promise<LatencyFigures> {
  const platform = await startTestPlatform({ LOCAL_BLOCK_INTERVAL_SECONDS: '1', STREAMS_ALLOW_TARGETS: 'loopback' });
  const receiver = new BenchReceiver();
  await receiver.start();
  try {
    const auth = { authorization: `Bearer ${await clientToken(platform)}` };
    const node = await json<{ id: string }>(`${platform.urls.nodes}/users/me/nodes`, { method: 'POST', headers: auth, body: JSON.stringify({ image: 'eth' }) });
    await until(
      `node ${node.id} running`,
      async () => (await json<{ state: string }>(`${platform.urls.nodes}/users/me/nodes/${node.id}`, { headers: auth })).state === 'running',
      120_000,
    );
    // The node itself, as the streams service reads it: its own port, its internal login.
    const { rpcPort } = JSON.parse(readFileSync(path.join(platform.dataDir, 'nodes', node.id, 'node.json'), 'utf8')) as { rpcPort: number };
    const login = nodeRpcAuthorization(loadNodeRpcKey({ DATA_DIR: platform.dataDir }), node.id);
    const firstSeen = new Map<number, number>();
    let polling = true;
    const poller = (async () => {
      while (polling) {
        const answer = await json<{ result: string }>(`http://127.0.0.1:${rpcPort}/`, {
          method: 'POST',
          headers: { authorization: login },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] }),
        });
        const height = Number(answer.result);
        if (!firstSeen.has(height)) firstSeen.set(height, performance.now());
        await new Promise((resolve) => setTimeout(resolve, pollMs));
      }
    })();
    await json(`${platform.urls.streams}/users/me/streams`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ nodeId: node.id, kind: 'blocks', url: receiver.url }),
    });
    progress(`  streaming ${node.id}'s blocks for ${seconds} s`);
    await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
    polling = false;
    await poller;
    // Blocks the poll saw appear while it ran (not the head it found at its start) and that arrived.
    const heights = [...firstSeen.keys()].slice(1);
    const latencies = [...receiver.arrivals.values()]
      .filter(({ event }) => event.type === 'block' && event.height !== undefined && heights.includes(event.height))
      .map(({ at, event }) => at - firstSeen.get(event.height!)!);
    if (latencies.length < seconds / 2) throw new Error(`only ${latencies.length} blocks measured in ${seconds} s`);
    return {
      blocks: latencies.length,
      p50Ms: quantile(latencies, 0.5),
      p99Ms: quantile(latencies, 0.99),
      maxMs: Math.max(...latencies),
      pollMs,
      headIntervalMs: Number(process.env.STREAMS_HEAD_INTERVAL_MS || 250),
    };
  } finally {
    await receiver.close();
    await platform.stop();
  }
}
