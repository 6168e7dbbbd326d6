/**
 * What a node prints that would let its reader past the proxy, and what replaces it. A node's
 * user reads its log (the nodes API, the proxy's `/logs`), but must never reach the node's RPC
 * except through the proxy, nor use a key the node holds. Every rule sees one line at a time, so
 * a line is redacted the same wherever a tail of the log starts. The replacement says what was
 * removed, so a reader knows something was there. What a user makes the node print (a contract's
 * console.log in anvil) passes here too, so no pattern backtracks more than a bounded amount.
 */
interface RedactionRule {
  /** What the redacted text was; it shows as `[redacted: <what>]`. */
  what: string;
  /** Which software prints it, and why it must not be read. */
  why: string;
  /** Group 1, when there is one, is kept: the words that say what follows. */
  pattern: RegExp;
}

const RULES: readonly RedactionRule[] = [
  {
    what: 'private key',
    why: 'anvil lists the private keys of its funded dev accounts under "Private Keys" as "(0) 0x<64 hex>"; with one, eth_sendRawTransaction spends them',
    pattern: /^(\s*\(\d+\)\s+)0x[0-9a-fA-F]{64}\s*$/g,
  },
  {
    what: 'private key',
    why: 'any software: 64 hex digits named a private or secret key (block and transaction hashes are named otherwise, and stay)',
    pattern: /((?:private|secret|signing)[ _-]?key\b["']?[ \t]{0,3}[:=]?[ \t]{0,3}["']?)(?:0x)?[0-9a-fA-F]{64}\b/gi,
  },
  {
    what: 'mnemonic',
    why: 'anvil prints the BIP39 phrase its dev keys derive from ("Mnemonic:   test test ... junk"); it derives every key',
    pattern: /(\b(?:mnemonic|seed phrase|recovery phrase)\b[ \t:=]{0,40})\S.*$/gi,
  },
  {
    what: 'password',
    why: 'bitcoind-family daemons mask these in "Command-line arg:" lines; a daemon or version that does not must not leak them',
    pattern: /(\b(?:rpcpassword|rpcauth|password|passwd)\b["']?[ \t]{0,3}[:=][ \t]{0,3}["']?)(?!\*{4})[^\s"',]+/gi,
  },
  {
    what: 'cookie',
    why: 'bitcoind-family RPC cookie contents ("__cookie__:<password>") log in to the node',
    pattern: /(__cookie__:)\S+/g,
  },
  {
    what: 'credentials',
    why: 'an HTTP Authorization header logs in to whatever it was sent to',
    pattern: /(\bauthorization\b["']?[ \t]{0,3}[:=][ \t]{0,3}["']?(?:basic|bearer)[ \t]{1,3})[A-Za-z0-9+/=._~-]+/gi,
  },
  {
    what: 'internal address',
    why: 'anvil "Listening on 127.0.0.1:N", URLs of the node\'s own RPC: a loopback or wildcard host with a port is the node\'s unauthenticated RPC',
    pattern: /(?:\b(?:127(?:\.\d{1,3}){3}|0\.0\.0\.0|localhost)|\[(?:::1?|::ffff:127(?:\.\d{1,3}){3})\]):\d{1,5}\b/gi,
  },
  {
    what: 'port',
    why: 'litecoind/bitcoind "Binding RPC on address 127.0.0.1 port N" and "Command-line arg: rpcport=\\"N\\"", the dev chain likewise, avalanche dev chain "HTTP API server listening on address 127.0.0.1 port N", avalanchego {"port": N}: the node\'s RPC port on this machine',
    pattern: /(\b(?:rpc|http|api|p2p)?[ _-]?port\b["']?[ \t]{0,3}[:=]?[ \t]{0,3}["']?)\d{1,5}\b/gi,
  },
];

/** The line with every secret a rule knows replaced by `[redacted: <what>]`. */
export function redactLine(line: string): string {
  let result = line;
  for (const { what, pattern } of RULES) {
    // A rule without a group gets the match's offset (a number) as its second argument.
    result = result.replace(pattern, (_match, kept: unknown) => `${typeof kept === 'string' ? kept : ''}[redacted: ${what}]`);
  }
  return result;
}

export function redactLines(lines: readonly string[]): string[] {
  return lines.map(redactLine);
}
