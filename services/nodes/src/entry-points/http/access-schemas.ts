import ipaddr from 'ipaddr.js';
import { z } from 'zod';

// Shapes of the access-rules and credentials routes. Addresses and origins are normalised here,
// so the node-proxy compares them as they are stored.

/**
 * `10.0.0.0/8`, `2001:db8::/32`, or one address (`/32`, `/128`), as its network address. IPv4
 * only in four decimal parts (ipaddr.js also reads `127.1` or hex, which nobody means), and
 * IPv4-mapped IPv6 refused: the proxy sees such a peer as its IPv4 address.
 */
export function normaliseCidr(text: string): string | undefined {
  const [address = '', bits, ...rest] = text.split('/');
  if (rest.length > 0 || (bits !== undefined && !/^\d{1,3}$/.test(bits))) return undefined;
  const ipv4 = ipaddr.IPv4.isValidFourPartDecimal(address);
  if (!ipv4 && !ipaddr.IPv6.isValid(address)) return undefined;
  const parsed = ipaddr.parse(address);
  if (parsed instanceof ipaddr.IPv6 && parsed.isIPv4MappedAddress()) return undefined;
  const length = bits === undefined ? (ipv4 ? 32 : 128) : Number(bits);
  if (length > (ipv4 ? 32 : 128)) return undefined;
  const network = ipv4 ? ipaddr.IPv4.networkAddressFromCIDR(`${address}/${length}`) : ipaddr.IPv6.networkAddressFromCIDR(`${address}/${length}`);
  return `${network.toString()}/${length}`;
}

/** `https://app.example.com[:port]` as browsers send it in `Origin`, or undefined. */
export function normaliseOrigin(text: string): string | undefined {
  const match = /^(https?):\/\/([^/?#@\s]+)\/?$/i.exec(text);
  if (!match) return undefined;
  try {
    // The origin drops a default port and lower-cases the host, as a browser writes it.
    const origin = new URL(`${match[1]}://${match[2]}`).origin;
    return /^https?:\/\/[a-z0-9.\-[\]:]+$/.test(origin) ? origin : undefined;
  } catch {
    return undefined;
  }
}

const cidr = z.string().transform((text, ctx) => {
  const normalised = normaliseCidr(text.trim());
  if (normalised === undefined) ctx.addIssue({ code: 'custom', message: `${text} is not an IPv4 or IPv6 address or CIDR (write IPv4 as IPv4, not ::ffff:…)` });
  return normalised ?? text;
});

const origin = z.string().transform((text, ctx) => {
  const normalised = normaliseOrigin(text.trim());
  if (normalised === undefined)
    ctx.addIssue({ code: 'custom', message: `${text} is not an origin: scheme http or https, host and optional port, nothing else (no path, no *)` });
  return normalised ?? text;
});

const method = z
  .string()
  .regex(/^[A-Za-z][A-Za-z0-9_.]{0,127}$/, 'a method name: a letter, then letters, digits, _ or . (at most 128)')
  .transform((name) => name.toLowerCase());

/** The smallest answer bound an owner may set: under it, a node's ordinary answers (a block header) would not pass. */
const MIN_ANSWER_BYTES = 4096;

const unique = <T>(items: T[]): T[] => [...new Set(items)];

export const accessSchema = z
  .object({
    ipAllowlist: z
      .array(z.string())
      .meta({ description: 'CIDRs (IPv4, IPv6) or single addresses the node takes calls from; empty: anywhere', example: ['203.0.113.0/24', '2001:db8::/32'] }),
    originAllowlist: z
      .array(z.string())
      .meta({ description: 'origins whose pages may call the node (CORS); empty: no CORS, as before', example: ['https://app.example.com'] }),
    refusedMethods: z.array(z.string()).meta({ description: 'methods refused (-32601) on top of the platform policy, lower case', example: ['eth_getlogs'] }),
    ratePerSecond: z.number().int().nullable().meta({ description: "calls per second below the platform's rate; null: the platform's" }),
    maxAnswerBytes: z.number().int().nullable().meta({
      description:
        "largest answer passed on from the node, in bytes, below the platform's; null: the platform's. A larger answer is refused with a JSON-RPC error -32005 (HTTP 200), or 502 AnswerTooLarge on a REST path",
    }),
  })
  .meta({ id: 'NodeAccess' });

export const accessBody = z
  .strictObject({
    ipAllowlist: z.array(cidr).max(100).default([]).transform(unique),
    originAllowlist: z.array(origin).max(100).default([]).transform(unique),
    refusedMethods: z.array(method).max(200).default([]).transform(unique),
    ratePerSecond: z.number({ error: 'must be a whole number of calls per second, or null' }).int().min(1).nullable().default(null),
    maxAnswerBytes: z
      .number({ error: 'must be a whole number of bytes, or null' })
      .int()
      .min(MIN_ANSWER_BYTES, `must be at least ${MIN_ANSWER_BYTES} bytes`)
      .nullable()
      .default(null),
  })
  .meta({ id: 'NodeAccessRequest' });

export const credentialParams = z.object({ id: z.string().min(1).max(64), credentialId: z.string().min(1).max(64) });

const CREDENTIAL_NAME_MAX = 64;
const credentialName = z
  .string({ error: 'must be a name' })
  .regex(
    new RegExp(`^[A-Za-z0-9][A-Za-z0-9 ._-]{0,${CREDENTIAL_NAME_MAX - 1}}$`),
    `a name of 1 to ${CREDENTIAL_NAME_MAX} letters, digits, spaces, ., _ or -, starting with a letter or digit`,
  )
  // The lengths the pattern allows, said outright for forms (the console's maxLength).
  .meta({ description: 'your name for it, unique on the node', example: 'ci', minLength: 1, maxLength: CREDENTIAL_NAME_MAX });

const credentialKind = z.enum(['basic', 'token'], { error: 'must be basic or token' }).meta({
  description:
    "basic: a user name and password (HTTP Basic); token: a URL token, the first path segment of the node's addresses (https://127.0.0.1:8545/<token>)",
});

export const createCredentialBody = z.strictObject({ name: credentialName, kind: credentialKind.default('basic') }).meta({ id: 'CreateCredentialRequest' });

const credentialFields = {
  id: z.string().meta({ example: 'cred-4e1b7c2a-9d3f-4a8e-b5c6-7f0a1d2e3b4c' }),
  name: z.string(),
  createdAt: z.string(),
};

const basicCredentialSchema = z
  .object({ ...credentialFields, kind: z.literal('basic'), nodeUser: z.string().meta({ description: 'the Basic user name' }) })
  .meta({ id: 'BasicNodeCredential' });
const tokenCredentialSchema = z.object({ ...credentialFields, kind: z.literal('token') }).meta({ id: 'TokenNodeCredential' });

export const credentialSchema = z
  .discriminatedUnion('kind', [basicCredentialSchema, tokenCredentialSchema])
  .meta({ id: 'NodeCredential', description: 'a credential as listed: never its password or token, nor a hash or part of them' });

const interfaceUrls = {
  jsonRpc: z.string().meta({ example: 'https://127.0.0.1:8545/nt_…' }),
  rest: z.string().optional().meta({ description: 'Bitcoin-family nodes: REST paths go after it (…/<token>/rest/chaininfo.json)' }),
  webSocket: z.string().optional().meta({ example: 'wss://127.0.0.1:8545/nt_…' }),
};

export const tokenUrlsSchema = z
  .object({
    ...interfaceUrls,
    plain: z.object(interfaceUrls).optional().meta({ description: 'the same in plain HTTP, answered to loopback callers only; absent where not served' }),
  })
  .meta({ id: 'NodeTokenUrls', description: "the node's endpoints with the token in them, to paste as they are" });

export const newCredentialSchema = z
  .discriminatedUnion('kind', [
    basicCredentialSchema
      .extend({ nodePass: z.string().meta({ description: 'the Basic password: shown only in this answer' }) })
      .meta({ id: 'NewBasicNodeCredential' }),
    tokenCredentialSchema
      .extend({
        token: z.string().meta({ description: 'the URL token (nt_ and 43 characters): shown only in this answer', example: 'nt_q2V…' }),
        urls: tokenUrlsSchema,
      })
      .meta({ id: 'NewTokenNodeCredential' }),
  ])
  .meta({ id: 'NewNodeCredential', description: 'a new or rotated credential with its secret, shown only in this answer' });
