import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { syncReader } from '../src/drivers/sync-status';

// What a Bitcoin-family node answers while its transaction index catches up with its blocks (the
// shape of Litecoin Core 0.21's answers); the real daemon's path is in node-proxy's proxy-sync test,
// where the race is too short to catch on purpose.
let answers: Record<string, { result?: unknown; error?: { code: number; message: string } }>;
let server: http.Server;
let url: string;

beforeAll(async () => {
  server = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      const { id, method } = JSON.parse(body) as { id: number; method: string };
      const answer = answers[method] ?? { error: { code: -32601, message: 'Method not found' } };
      response.writeHead(answer.error?.code === -32601 ? 404 : 200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ result: null, error: null, ...answer, id }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const chain = { blocks: 200, headers: 200, verificationprogress: 1, initialblockdownload: false };
const read = () => syncReader('bitcoin', false)({ url, authorization: 'Basic x' });

it('a node whose transaction index is behind its blocks is syncing, at the index height over the blocks', async () => {
  answers = {
    getblockchaininfo: { result: chain },
    getnetworkinfo: { result: { connections: 1 } },
    getindexinfo: { result: { txindex: { synced: false, best_block_height: 50 } } },
  };
  expect(await read()).toMatchObject({ height: 200, bestKnownHeight: 200, syncing: true, progress: 0.25, peers: 1 });
});

it('once every index is synced the node is not syncing', async () => {
  answers = {
    getblockchaininfo: { result: chain },
    getnetworkinfo: { result: { connections: 1 } },
    getindexinfo: { result: { txindex: { synced: true, best_block_height: 200 } } },
  };
  expect(await read()).toMatchObject({ height: 200, syncing: false, progress: 1 });
});

it('a node from before getindexinfo (method not found) is read from its blocks alone; another error is not swallowed', async () => {
  answers = { getblockchaininfo: { result: chain }, getnetworkinfo: { result: { connections: 0 } } };
  expect(await read()).toMatchObject({ height: 200, syncing: false, progress: 1, peers: 0 });
  answers.getindexinfo = { error: { code: -28, message: 'Loading block index…' } };
  await expect(read()).rejects.toThrow(/getindexinfo: Loading block index/);
});
