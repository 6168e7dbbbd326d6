import { ConfigError, loadConfig, nodeAddressEnvironment } from '../src';

describe('the node address settings', () => {
  it('default to loopback addresses over TLS with plain HTTP beside it', () => {
    expect(loadConfig(nodeAddressEnvironment, {})).toEqual({ NODE_DOMAIN: 'nodes.localhost', PROXY_TLS: 'on', PROXY_LOOPBACK_HTTP: true });
  });

  it.each(['https://{node}.nodes.example.com', 'https://rpc.example.com/', 'http://10.0.0.5'])('take PUBLIC_NODE_URL %s', (url) => {
    expect(loadConfig(nodeAddressEnvironment, { PUBLIC_NODE_URL: url }).PUBLIC_NODE_URL).toBe(url.replace(/\/$/, ''));
  });

  it.each([
    ['https://rpc.example.com:8443', 'no port'],
    ['https://rpc.example.com/v1', 'no port'],
    ['https://user:pass@rpc.example.com', 'no port'],
    ['ftp://rpc.example.com', 'no port'],
    ['https://nodes.{node}.example.com', '{node} can only be the first label'],
    ['https://bad_host.example.com', 'is not a host name'],
  ])('refuses PUBLIC_NODE_URL %s, saying why', (url, why) => {
    expect(() => loadConfig(nodeAddressEnvironment, { PUBLIC_NODE_URL: url })).toThrow(ConfigError);
    expect(() => loadConfig(nodeAddressEnvironment, { PUBLIC_NODE_URL: url })).toThrow(why);
  });
});
