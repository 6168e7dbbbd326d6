import { nodeEndpoints, proxyAddressesOf, tokenUrls } from '../src';

const ltc = { id: 'node-1', ports: { jsonRpc: 9332, rest: 9332 }, routedByCredential: true };
const eth = { id: 'node-2', ports: { jsonRpc: 8545, webSocket: 8545 }, routedByCredential: true };
const defaults = { PROXY_TLS: 'on', PROXY_LOOPBACK_HTTP: true, NODE_DOMAIN: 'nodes.localhost' } as const;

describe('node endpoints', () => {
  it('are on the loopback address in the embedded default, with plain HTTP beside TLS', () => {
    expect(nodeEndpoints(ltc, proxyAddressesOf(defaults))).toEqual({
      jsonRpc: 'https://127.0.0.1:9332/',
      rest: 'https://127.0.0.1:9332/rest/',
      plain: { jsonRpc: 'http://127.0.0.1:9332/', rest: 'http://127.0.0.1:9332/rest/' },
    });
  });

  it('say http everywhere with PROXY_TLS=off, and nothing plain beside', () => {
    expect(nodeEndpoints(eth, proxyAddressesOf({ ...defaults, PROXY_TLS: 'off' }))).toEqual({
      jsonRpc: 'http://127.0.0.1:8545/',
      webSocket: 'ws://127.0.0.1:8545/',
    });
  });

  it('use the ports the proxy really listens on', () => {
    expect(nodeEndpoints(eth, proxyAddressesOf({ ...defaults, PROXY_LOOPBACK_HTTP: false, ports: { 8545: 40001 } }))).toEqual({
      jsonRpc: 'https://127.0.0.1:40001/',
      webSocket: 'wss://127.0.0.1:40001/',
    });
  });

  it("use the operator's public host, by node name with {node}, and serve nothing plain there", () => {
    expect(nodeEndpoints(ltc, proxyAddressesOf({ ...defaults, PUBLIC_NODE_URL: 'https://{node}.nodes.example.com' }))).toEqual({
      jsonRpc: 'https://node-1.nodes.example.com:9332/',
      rest: 'https://node-1.nodes.example.com:9332/rest/',
    });
    expect(nodeEndpoints(ltc, proxyAddressesOf({ ...defaults, PUBLIC_NODE_URL: 'https://rpc.example.com' })).jsonRpc).toBe('https://rpc.example.com:9332/');
  });

  it('give a jwt node its name, since a client access token names no node', () => {
    expect(nodeEndpoints({ ...eth, routedByCredential: false }, proxyAddressesOf(defaults))).toEqual({
      jsonRpc: 'https://node-2.nodes.localhost:8545/',
      webSocket: 'wss://node-2.nodes.localhost:8545/',
    });
  });

  it('put a URL token first in every path', () => {
    const endpoints = nodeEndpoints({ ...ltc, ports: { ...ltc.ports } }, proxyAddressesOf(defaults));
    expect(tokenUrls(endpoints, 'nt_abc')).toEqual({ jsonRpc: 'https://127.0.0.1:9332/nt_abc', rest: 'https://127.0.0.1:9332/nt_abc/rest/' });
    expect(tokenUrls(nodeEndpoints(eth, proxyAddressesOf(defaults)), 'nt_abc')).toEqual({
      jsonRpc: 'https://127.0.0.1:8545/nt_abc',
      webSocket: 'wss://127.0.0.1:8545/nt_abc',
    });
  });
});
