// The load's users: each signs up, verifies its address (from the development mail outbox),
// gets an account token and a client token, and owns one eth node (anvil, local driver).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { call, expectJson } from './http';
import type { Platform } from './platform';
import { waitFor } from './shell';

export interface LoadUser {
  id: string;
  accountToken: string;
  clientToken: string;
  nodeId: string;
  /** Host header that routes to the node: <nodeId>.<NODE_DOMAIN>. */
  nodeHost: string;
  nodeAuth: string;
}

/** The verification link of `userId` from the dev outbox's readable copies (.txt) of its e-mails. */
function verificationPath(dataDir: string, userId: string): string | undefined {
  const mailDir = path.join(dataDir, 'mail');
  let files: string[];
  try {
    files = readdirSync(mailDir);
  } catch {
    return undefined;
  }
  for (const file of files) {
    if (!file.endsWith('.txt')) continue;
    const text = readFileSync(path.join(mailDir, file), 'utf8');
    const match = new RegExp(`/users/${userId}/token/([A-Za-z0-9_-]+)`).exec(text);
    if (match) return match[0];
  }
  return undefined;
}

/** A verified account with an account token and a client token (what calls the nodes API). */
export interface Account {
  id: string;
  accountToken: string;
  clientToken: string;
}

/** Signs up `label`'s account, verifies its address (from the development mail outbox) and logs in. */
export async function signUp(platform: Platform, label: string): Promise<Account> {
  const email = `faults-${label}-${Date.now()}@example.com`;
  const password = 'correct horse battery 42';
  const profile = await expectJson<{ id: string }>(
    'sign-up',
    call('POST', `${platform.accountsUrl}/users`, { body: { email, password, displayName: `Load ${label}` } }),
  );
  let link: string | undefined;
  await waitFor('the verification e-mail', async () => (link = verificationPath(platform.dataDir, profile.id)) !== undefined, 15_000);
  await expectJson('verification', call('PUT', `${platform.accountsUrl}${link}`));
  const basic = `Basic ${Buffer.from(`${email}:${password}`).toString('base64')}`;
  const { accessToken: accountToken } = await expectJson<{ accessToken: string }>(
    'login',
    call('POST', `${platform.accountsUrl}/auth`, { headers: { authorization: basic } }),
  );
  const key = await expectJson<{ clientId: string; clientSecret: string }>(
    'client key',
    call('POST', `${platform.accountsUrl}/users/me/client-keys`, { headers: { authorization: `Bearer ${accountToken}` } }),
  );
  const { accessToken: clientToken } = await expectJson<{ accessToken: string }>(
    'client token',
    call('POST', `${platform.accountsUrl}/auth/token`, { body: { grantType: 'clientCredentials', clientId: key.clientId, clientSecret: key.clientSecret } }),
  );
  return { id: profile.id, accountToken, clientToken };
}

async function createUser(platform: Platform, index: number): Promise<LoadUser> {
  const { id, accountToken, clientToken } = await signUp(platform, String(index));
  const node = await expectJson<{ id: string; address: string; nodeUser: string; nodePass: string }>(
    'eth node',
    call('POST', `${platform.nodesUrl}/users/me/nodes`, { headers: { authorization: `Bearer ${clientToken}` }, body: { image: 'eth' } }),
  );
  return {
    id,
    accountToken,
    clientToken,
    nodeId: node.id,
    nodeHost: node.address,
    nodeAuth: `Basic ${Buffer.from(`${node.nodeUser}:${node.nodePass}`).toString('base64')}`,
  };
}

/** One proxied eth_blockNumber call; true when the node answered with a result. */
export async function rpcOk(platform: Platform, user: LoadUser, timeoutMs = 5_000): Promise<boolean> {
  const answer = await call('POST', platform.proxyEthUrl, {
    headers: { host: user.nodeHost, authorization: user.nodeAuth },
    body: { jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] },
    timeoutMs,
  });
  return answer.status === 200 && /"result"\s*:/.test(answer.body);
}

export async function createUsers(platform: Platform, count: number): Promise<LoadUser[]> {
  const users: LoadUser[] = [];
  for (let i = 0; i < count; i += 1) users.push(await createUser(platform, i));
  for (const user of users) await waitFor(`node ${user.nodeId} to answer through the proxy`, () => rpcOk(platform, user), 60_000, 250);
  return users;
}
