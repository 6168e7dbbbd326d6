import { nodeEndpoints, tokenUrls as platformTokenUrls } from '@cloud/chains';
import { curlLine, readyLines, shellWord, tokenUrls } from '../src/ready-lines';

const ethEndpoints = {
  jsonRpc: 'https://127.0.0.1:8545/',
  webSocket: 'wss://127.0.0.1:8546/',
  plain: { jsonRpc: 'http://127.0.0.1:8545/', webSocket: 'ws://127.0.0.1:8546/' },
};
const token = 'nt_AbC-_123';
const tokenUrlsOfToken = {
  jsonRpc: `https://127.0.0.1:8545/${token}`,
  webSocket: `wss://127.0.0.1:8546/${token}`,
  plain: { jsonRpc: `http://127.0.0.1:8545/${token}`, webSocket: `ws://127.0.0.1:8546/${token}` },
};
const ltcEndpoints = {
  jsonRpc: 'https://127.0.0.1:9332/',
  rest: 'https://127.0.0.1:9332/rest/',
  plain: { jsonRpc: 'http://127.0.0.1:9332/', rest: 'http://127.0.0.1:9332/rest/' },
};

describe('readyLines', () => {
  it('gives an eth URL token curl, ethers (HTTP and WebSocket) and cast, cast on plain HTTP behind a dev CA', () => {
    const lines = readyLines({ image: 'eth', endpoints: ethEndpoints, credential: { kind: 'token', urls: tokenUrlsOfToken }, caFile: '/tmp/dev ca.pem' });
    expect(lines.map((each) => each.name)).toEqual(['curl', 'ethers', 'ethers (WebSocket)', 'cast']);
    expect(lines[0]!.line).toBe(
      `curl -sS --cacert '/tmp/dev ca.pem' -H 'content-type: application/json' -d '{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber","params":[]}' https://127.0.0.1:8545/${token}`,
    );
    expect(lines[1]).toEqual({
      name: 'ethers',
      line: `const provider = new JsonRpcProvider('https://127.0.0.1:8545/${token}');`,
      note: expect.stringContaining("NODE_EXTRA_CA_CERTS='/tmp/dev ca.pem'"),
    });
    expect(lines[2]!.line).toBe(`const provider = new WebSocketProvider('wss://127.0.0.1:8546/${token}');`);
    expect(lines[3]).toMatchObject({ line: `cast block-number --rpc-url http://127.0.0.1:8545/${token}` });
  });

  it('calls cast on the TLS address when no CA file is needed, and leaves it out with Basic', () => {
    const withToken = readyLines({ image: 'eth', endpoints: ethEndpoints, credential: { kind: 'token', urls: tokenUrlsOfToken } });
    expect(withToken.find((each) => each.name === 'cast')).toEqual({ name: 'cast', line: `cast block-number --rpc-url https://127.0.0.1:8545/${token}` });
    expect(withToken.some((each) => each.note)).toBe(false);
    const basic = readyLines({ image: 'eth', endpoints: ethEndpoints, credential: { kind: 'basic', user: 'u1', password: "p'w" }, caFile: null });
    expect(basic.map((each) => each.name)).toEqual(['curl', 'ethers']);
    expect(basic[0]!.line).toContain(`-u 'u1:p'\\''w' `);
    expect(basic[1]!.line).toContain(`request.setCredentials('u1', 'p\\'w')`);
  });

  it('gives a Bitcoin-family node with Basic its own CLI on the plain HTTP address, and none with a token', () => {
    const lines = readyLines({ image: 'ltc', endpoints: ltcEndpoints, credential: { kind: 'basic', user: 'user', password: 'pass' }, caFile: '/ca.pem' });
    expect(lines.map((each) => each.name)).toEqual(['curl', 'litecoin-cli']);
    expect(lines[1]!.line).toBe('litecoin-cli -rpcconnect=127.0.0.1 -rpcport=9332 -rpcuser=user -rpcpassword=pass getblockcount');
    const btc = readyLines({ image: 'btc', endpoints: { jsonRpc: 'http://127.0.0.1:8332/' }, credential: { kind: 'basic', user: 'u', password: 'p' } });
    expect(btc.map((each) => each.line)).toContain('bitcoin-cli -rpcconnect=127.0.0.1 -rpcport=8332 -rpcuser=u -rpcpassword=p getblockcount');
    const noPlain = readyLines({
      image: 'ltc',
      endpoints: { jsonRpc: 'https://rpc.example.com:9332/' },
      credential: { kind: 'basic', user: 'u', password: 'p' },
    });
    expect(noPlain.map((each) => each.name)).toEqual(['curl']);
    const token = readyLines({ family: 'bitcoin', endpoints: ltcEndpoints, credential: { kind: 'token', urls: { jsonRpc: 'https://127.0.0.1:9332/nt_x' } } });
    expect(token.map((each) => each.name)).toEqual(['curl']);
  });

  it('calls an avalanche node at its API path, and a jwt node with the client token', () => {
    const [avalanche] = readyLines({
      image: 'avalanchefuji',
      endpoints: { jsonRpc: 'http://127.0.0.1:9650/' },
      credential: { kind: 'token', urls: { jsonRpc: 'http://127.0.0.1:9650/nt_y' } },
    });
    expect(avalanche!.line).toMatch(/"method":"info.getNodeID".* http:\/\/127.0.0.1:9650\/nt_y\/ext\/info$/);
    const jwt = readyLines({ image: 'eth', endpoints: { jsonRpc: 'https://node-1.nodes.localhost:8545/' }, credential: { kind: 'jwt' } });
    expect(jwt).toEqual([{ name: 'curl', line: expect.stringContaining('-H "authorization: Bearer $(npx cloud token)"') }]);
  });

  it('quotes shell words only when needed, and curl shows a placeholder for an unknown credential', () => {
    expect(shellWord('https://127.0.0.1:9332/')).toBe('https://127.0.0.1:9332/');
    expect(shellWord('a b')).toBe(`'a b'`);
    expect(curlLine({ image: 'ltc', url: 'https://127.0.0.1:9332/' })).toContain(`-u '<user>:<password>'`);
  });
});

describe('tokenUrls', () => {
  it('puts the token where the platform does, in the plain HTTP addresses too', () => {
    const at = { base: 'https://127.0.0.1', nodeDomain: 'nodes.localhost', loopbackHttp: true };
    for (const ports of [
      { jsonRpc: 9332, rest: 9332 },
      { jsonRpc: 8545, webSocket: 8546 },
    ]) {
      const endpoints = nodeEndpoints({ id: 'node-1', ports, routedByCredential: true }, at);
      const urls = tokenUrls(endpoints, 'nt_abc');
      expect(urls).toEqual({ ...platformTokenUrls(endpoints, 'nt_abc'), plain: platformTokenUrls(endpoints.plain!, 'nt_abc') });
    }
  });
});
