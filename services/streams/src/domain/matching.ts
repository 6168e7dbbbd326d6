// STAND-IN (branch i32-api): only the address checks the API needs; the follow branch's
// domain/matching.ts (i32-follow) replaces this file at merge.
import { InvalidInputError } from '@cloud/http';
import type { StreamFamily } from './node-routes';

const ETH_ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const BITCOIN_ADDRESS = /^[1-9A-HJ-NP-Za-km-z]{14,90}$|^[a-z0-9]{1,83}1[02-9ac-hj-np-z]{6,87}$|^[A-Z0-9]{1,83}1[02-9AC-HJ-NP-Z]{6,87}$/;
const TOPIC = /^0x[0-9a-fA-F]{64}$/;

/** The addresses as stored (eth: lower-case), each checked; throws naming the first bad one. */
export function normalizeAddresses(family: StreamFamily, addresses: string[]): string[] {
  const pattern = family === 'ethereum' ? ETH_ADDRESS : BITCOIN_ADDRESS;
  const bad = addresses.find((address) => !pattern.test(address));
  if (bad !== undefined)
    throw new InvalidInputError(
      `body.addresses: ${bad} is not ${family === 'ethereum' ? 'an eth address (0x and 40 hex digits)' : 'a Bitcoin-family address'}`,
    );
  return [...new Set(family === 'ethereum' ? addresses.map((address) => address.toLowerCase()) : addresses)];
}

/** Log topics (0x and 64 hex digits), lower-cased; throws naming the first bad one. */
export function normalizeTopics(topics: string[]): string[] {
  const bad = topics.find((topic) => !TOPIC.test(topic));
  if (bad !== undefined) throw new InvalidInputError(`body.topics: ${bad} is not a topic (0x and 64 hex digits)`);
  return [...new Set(topics.map((topic) => topic.toLowerCase()))];
}
