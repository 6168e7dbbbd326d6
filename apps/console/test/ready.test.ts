import { namedEndpoints } from '../web/src/rpc';
import { devLines, placeholderLines, linesFor, HUNDRED_ETHER, type Callable } from '../web/src/ready';

// The page's pure parts: the endpoints it names, and the SDK's ready lines as the node page uses
// them (placeholders without a secret, a secret's own lines, and the dev chain's fund and mine lines).

const token = 'nt_AbC-_123';
const eth: Callable = {
  image: 'eth',
  jwt: false,
  dev: true,
  endpoints: {
    jsonRpc: 'https://127.0.0.1:8545/',
    webSocket: 'wss://127.0.0.1:8546/',
    plain: { jsonRpc: 'http://127.0.0.1:8545/', webSocket: 'ws://127.0.0.1:8546/' },
  },
};
const tokenSecret = {
  id: 'cred-1',
  name: 'ci',
  kind: 'token' as const,
  token,
  urls: { jsonRpc: `https://127.0.0.1:8545/${token}`, webSocket: `wss://127.0.0.1:8546/${token}`, plain: { jsonRpc: `http://127.0.0.1:8545/${token}` } },
  createdAt: '2026-11-27T00:00:00.000Z',
};
const ltc: Callable = {
  image: 'ltc',
  jwt: false,
  dev: true,
  endpoints: {
    jsonRpc: 'https://127.0.0.1:9332/',
    rest: 'https://127.0.0.1:9332/rest/',
    plain: { jsonRpc: 'http://127.0.0.1:9332/', rest: 'http://127.0.0.1:9332/rest/' },
  },
};

describe('namedEndpoints', () => {
  it('names each address the record has, in order, and leaves out the ones it has not', () => {
    expect(namedEndpoints(ltc.endpoints)).toEqual([
      { name: 'JSON-RPC', url: 'https://127.0.0.1:9332/' },
      { name: 'REST', url: 'https://127.0.0.1:9332/rest/' },
    ]);
    expect(namedEndpoints({ jsonRpc: 'https://127.0.0.1:9650/', management: 'https://127.0.0.1:8080/' }).map((each) => each.name)).toEqual([
      'JSON-RPC',
      'Management (/status, /logs)',
    ]);
  });
});

describe('ready lines', () => {
  it('puts the node user and a <password> placeholder where no secret is at hand', () => {
    const [curl] = placeholderLines(ltc, '/ca.pem', 'u-1');
    expect(curl).toMatchObject({ name: 'curl', line: expect.stringContaining(`-u 'u-1:<password>'`) });
    expect(placeholderLines(ltc, null)[0]!.line).toContain(`-u '<user>:<password>'`);
    expect(placeholderLines({ ...eth, jwt: true }, null)[0]!.line).toContain('authorization: Bearer $(npx cloud token)');
  });

  it("uses a token's own addresses", () => {
    const lines = linesFor(eth, null, tokenSecret);
    expect(lines.map((each) => each.name)).toEqual(['curl', 'ethers', 'ethers (WebSocket)', 'cast']);
    expect(lines[0]!.line).toMatch(new RegExp(`https://127\\.0\\.0\\.1:8545/${token}$`));
  });
});

describe('devLines', () => {
  it("funds and mines on a dev eth node with cast at the token's address, plain HTTP behind the dev CA", () => {
    const lines = devLines(eth, '/ca.pem', '0xAbC', tokenSecret);
    expect(lines).toEqual([
      {
        name: 'cast: give the address 100 ether',
        line: `cast rpc anvil_setBalance 0xAbC ${HUNDRED_ETHER} --rpc-url http://127.0.0.1:8545/${token}`,
        note: expect.stringContaining('plain HTTP'),
      },
      { name: 'cast: mine a block', line: `cast rpc evm_mine --rpc-url http://127.0.0.1:8545/${token}`, note: expect.stringContaining('plain HTTP') },
    ]);
    // No CA to trust: the TLS address.
    expect(devLines(eth, null, '0xAbC', tokenSecret)[1]).toEqual({
      name: 'cast: mine a block',
      line: `cast rpc evm_mine --rpc-url https://127.0.0.1:8545/${token}`,
    });
    expect(HUNDRED_ETHER).toBe(`0x${(100n * 10n ** 18n).toString(16).toUpperCase()}`);
  });

  it('has placeholders without a token, and quotes what is typed', () => {
    const [fund] = devLines(eth, null, "0x1'; rm -rf ~", undefined);
    expect(fund!.line).toBe(`cast rpc anvil_setBalance '0x1'\\''; rm -rf ~' ${HUNDRED_ETHER} --rpc-url '<the URL token’s address>'`);
    expect(devLines(eth, null, '', undefined)[0]!.line).toContain("anvil_setBalance '<address>'");
  });

  it('mines 101 blocks to the address on a dev Bitcoin-family node with its CLI on plain HTTP', () => {
    expect(devLines(ltc, '/ca.pem', 'rltc1qxyz', undefined, 'u-1')).toEqual([
      {
        name: 'litecoin-cli: mine 101 blocks to the address',
        line: `litecoin-cli -rpcconnect=127.0.0.1 -rpcport=9332 -rpcuser=u-1 '-rpcpassword=<password>' generatetoaddress 101 rltc1qxyz`,
        note: expect.stringContaining('plain HTTP'),
      },
    ]);
  });

  it('gives a node on a real network none', () => {
    expect(devLines({ ...eth, dev: false }, null, '0xabc', tokenSecret)).toEqual([]);
    expect(devLines({ ...ltc, dev: false }, null, 'x', undefined, 'u-1')).toEqual([]);
  });
});
