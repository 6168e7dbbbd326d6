import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One validator as platform.getCurrentValidators lists it (avalanchego >= 1.11: numbers as strings). */
export interface ListedValidator {
  txID: string;
  nodeID: string;
  startTime: string;
  endTime: string;
  weight: string;
  delegatorWeight: string;
  uptime: string;
  connected: boolean;
  [field: string]: unknown;
}

export interface FakeAvalancheNode {
  url: string;
  /** What getCurrentValidators lists (whatever the filter asks), or a raw `result` to send instead. */
  validators: ListedValidator[] | { raw: unknown };
  bootstrapped: boolean;
  /** Hold every answer back (a node that does not answer in time). */
  silent: boolean;
  /** The requests taken: path, JSON-RPC method and params, Authorization header. */
  calls: Array<{ path: string; method: string; params: unknown; authorization: string | undefined }>;
  close(): Promise<void>;
}

/**
 * A stand-in for a validator node's API: `info.isBootstrapped` at /ext/info and
 * `platform.getCurrentValidators` at /ext/bc/P, as avalanchego answers them; the test sets what
 * it answers.
 */
export async function startFakeAvalancheNode(): Promise<FakeAvalancheNode> {
  const held: http.ServerResponse[] = [];
  const node: FakeAvalancheNode = {
    url: '',
    validators: [],
    bootstrapped: true,
    silent: false,
    calls: [],
    close: () =>
      new Promise<void>((resolve) => {
        for (const response of held) response.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const request = JSON.parse(body) as { id: number; method: string; params: unknown };
      node.calls.push({ path: req.url ?? '', method: request.method, params: request.params, authorization: req.headers.authorization });
      if (node.silent) {
        held.push(res);
        return;
      }
      let result: unknown;
      if (req.url === '/ext/info' && request.method === 'info.isBootstrapped') result = { isBootstrapped: node.bootstrapped };
      else if (req.url === '/ext/bc/P' && request.method === 'platform.getCurrentValidators')
        result = 'raw' in node.validators ? node.validators.raw : { validators: node.validators };
      res.setHeader('content-type', 'application/json');
      if (result === undefined) res.end(JSON.stringify({ jsonrpc: '2.0', id: request.id, error: { code: -32601, message: 'the method does not exist' } }));
      else res.end(JSON.stringify({ jsonrpc: '2.0', id: request.id, result }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  node.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return node;
}

/** A listing of `nodeID` registered over [start, end), with 2,000 AVAX of its own and 500 delegated. */
export function listed(nodeID: string, start: number, end: number, extra: Partial<ListedValidator> = {}): ListedValidator {
  return {
    txID: '2QYfFcfZ9ZKHqLSw9bXCzbBfHrG6Xv4ds1ikmAYFKfEuFzHnKG',
    nodeID,
    startTime: String(Math.floor(start / 1000)),
    endTime: String(Math.floor(end / 1000)),
    weight: '2000000000000',
    delegatorWeight: '500000000000',
    delegatorCount: '1',
    potentialReward: '12345',
    delegationFee: '2.0000',
    uptime: '99.5000',
    connected: true,
    ...extra,
  };
}
