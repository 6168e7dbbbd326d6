import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { tokenUrls, type InterfaceUrls } from '@cloud/chains';
import type { Database } from '@cloud/db';
import { ConflictError, ForbiddenError, NotFoundError } from '@cloud/http';
import { newNodeCredentials } from '@cloud/node-rpc-auth';
import type { BasicNodeCredential, CredentialKind, NodeCredential, TokenNodeCredential } from '../data-access/node-record';
import type { CredentialedEndpoint, CredentialedEndpoints, CredentialedStore } from './credentialed-endpoints';

/** The name of the credential a node is created with. */
export const DEFAULT_CREDENTIAL_NAME = 'default';

/** The prefix of a URL token: `nt_` and the base64url of 32 random bytes. */
export const NODE_TOKEN_PREFIX = 'nt_';

/** A credential as the API lists it: never the password or token, nor their hashes. */
export type CredentialView =
  { id: string; name: string; kind: 'basic'; nodeUser: string; createdAt: string } | { id: string; name: string; kind: 'token'; createdAt: string };

/** A URL token's addresses: the token in each, and in the plain HTTP ones where the proxy serves them. */
export type TokenUrlsView = InterfaceUrls & { plain?: InterfaceUrls };

/** A new or rotated credential as its creator sees it, once: with the password, or the token and its URLs. */
export type NewCredentialView =
  (CredentialView & { kind: 'basic'; nodePass: string }) | (CredentialView & { kind: 'token'; token: string; urls: TokenUrlsView });

/** A new named Basic credential (a fresh user name and 32-byte password) and its password, to show once. */
export function newCredential(name: string, at: Date): { credential: BasicNodeCredential; nodePass: string } {
  const { nodeUser, nodePass, passwordHash } = newNodeCredentials();
  return {
    credential: { kind: 'basic', id: `cred-${randomUUID()}`, name, user: nodeUser, passwordSha256: passwordHash, createdAt: at.toISOString() },
    nodePass,
  };
}

/** A fresh URL token (`nt_` + base64url of 32 random bytes) and the hex SHA-256 the node keeps of it. */
export function newNodeToken(): { token: string; tokenSha256: string } {
  const token = `${NODE_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
  return { token, tokenSha256: createHash('sha256').update(token, 'utf8').digest('hex') };
}

/** A secret for a credential: a new one of its kind (for rotation, a new password under the same user name). */
type Issued = { credential: BasicNodeCredential; nodePass: string } | { credential: TokenNodeCredential; token: string };

function issue(kind: CredentialKind, base: { id: string; name: string; createdAt: string; user?: string }): Issued {
  if (kind === 'token') {
    const { token, tokenSha256 } = newNodeToken();
    return { credential: { kind, id: base.id, name: base.name, tokenSha256, createdAt: base.createdAt }, token };
  }
  const fresh = newNodeCredentials();
  return {
    credential: { kind, id: base.id, name: base.name, user: base.user ?? fresh.nodeUser, passwordSha256: fresh.passwordHash, createdAt: base.createdAt },
    nodePass: fresh.nodePass,
  };
}

export const toCredentialView = (credential: NodeCredential): CredentialView =>
  credential.kind === 'token'
    ? { id: credential.id, name: credential.name, kind: 'token', createdAt: credential.createdAt }
    : { id: credential.id, name: credential.name, kind: 'basic', nodeUser: credential.user, createdAt: credential.createdAt };

export interface NodeCredentialsDependencies {
  db: Database;
  /** Nodes' and pools' rules, by the id's kind. */
  endpoints: CredentialedEndpoints;
  clock: () => number;
  /** Of a node, and of a pool. */
  maxCredentialsPerNode: number;
}

/**
 * A node's (or a pool's) named credentials, Basic (user name and password) or URL tokens: listed,
 * added and rotated (the secret shown once) and revoked one by one. Each change raises the
 * revision and announces the route (`node.credentials-changed`, `pool.changed`), so every proxy
 * replica takes or drops the credential at once. A jwt node has none (409).
 */
export class NodeCredentials {
  constructor(private readonly deps: NodeCredentialsDependencies) {}

  async list(userId: string, id: string): Promise<CredentialView[]> {
    const node = await this.find(userId, id);
    assertCredentialed(node);
    return node.credentials.map(toCredentialView);
  }

  /** The node's (or pool's) credentials by id, with name and kind (none for a jwt node); 404 for one that is not the user's. */
  async names(userId: string, id: string): Promise<Map<string, { name: string; kind: CredentialKind }>> {
    const node = await this.find(userId, id);
    return new Map(node.credentials.map((each) => [each.id, { name: each.name, kind: each.kind }]));
  }

  async create(userId: string, id: string, request: { name: string; kind: CredentialKind }): Promise<NewCredentialView> {
    const { name, kind } = request;
    const issued = issue(kind, { id: `cred-${randomUUID()}`, name, createdAt: new Date(this.deps.clock()).toISOString() });
    const node = await this.change(userId, id, (current, noun) => {
      if (current.credentials.some((each) => each.name === name)) throw new ConflictError(`${noun} ${id} has a credential named ${name} already`);
      const cap = this.deps.maxCredentialsPerNode;
      if (current.credentials.length >= cap)
        throw new ForbiddenError(`${noun} ${id} has ${cap} credentials, the most allowed; remove one first`, 'LimitExceeded');
      return [...current.credentials, issued.credential];
    });
    return this.shown(node, issued);
  }

  /**
   * A new secret for one credential: the same id, name and kind (and user name for Basic). The old
   * secret is refused from the announcement of the new revision on.
   */
  async rotate(userId: string, id: string, credentialId: string): Promise<NewCredentialView> {
    let issued: Issued | undefined;
    const node = await this.change(userId, id, (current, noun) => {
      const old = current.credentials.find((each) => each.id === credentialId);
      if (!old) throw new NotFoundError(`${noun} ${id} has no credential ${credentialId}`);
      const fresh = issue(old.kind, { id: old.id, name: old.name, createdAt: old.createdAt, ...(old.kind === 'basic' ? { user: old.user } : {}) });
      issued = fresh;
      return current.credentials.map((each) => (each.id === credentialId ? fresh.credential : each));
    });
    return this.shown(node, issued!);
  }

  /** Revokes one credential; the others keep working. The last one (of either kind) cannot go: make another first. */
  async remove(userId: string, id: string, credentialId: string): Promise<CredentialView[]> {
    const node = await this.change(userId, id, (current, noun) => {
      if (!current.credentials.some((each) => each.id === credentialId)) throw new NotFoundError(`${noun} ${id} has no credential ${credentialId}`);
      if (current.credentials.length === 1)
        throw new ConflictError(`${credentialId} is the last credential of ${noun} ${id}; create another before removing it`);
      return current.credentials.filter((each) => each.id !== credentialId);
    });
    return node.credentials.map(toCredentialView);
  }

  /** The answer showing a new secret once: the password, or the token with the endpoint's URLs carrying it. */
  private shown(node: CredentialedEndpoint, issued: Issued): NewCredentialView {
    if ('nodePass' in issued) return { ...(toCredentialView(issued.credential) as CredentialView & { kind: 'basic' }), nodePass: issued.nodePass };
    const { endpoints } = node;
    const urls: TokenUrlsView = { ...tokenUrls(endpoints, issued.token), ...(endpoints.plain ? { plain: tokenUrls(endpoints.plain, issued.token) } : {}) };
    return { ...(toCredentialView(issued.credential) as CredentialView & { kind: 'token' }), token: issued.token, urls };
  }

  private async find(userId: string, id: string): Promise<CredentialedEndpoint> {
    const store = this.deps.endpoints.of(id);
    const found = await store.find(userId, id);
    if (!found) throw store.notFound(id);
    return found;
  }

  private async change(
    userId: string,
    id: string,
    next: (current: CredentialedEndpoint, noun: CredentialedStore['noun']) => NodeCredential[],
  ): Promise<CredentialedEndpoint> {
    const store = this.deps.endpoints.of(id);
    return this.deps.db.transaction(async (trx) => {
      const current = await store.findForUpdate(trx, userId, id);
      if (!current) throw store.notFound(id);
      assertCredentialed(current);
      const changed = await store.setRules(trx, id, { credentials: next(current, store.noun) }, new Date(this.deps.clock()));
      if (!changed) throw new ConflictError(`${store.noun} ${id} is being deleted`);
      return changed;
    });
  }
}

function assertCredentialed(node: CredentialedEndpoint): void {
  if (node.jwt) throw new ConflictError(`node ${node.id} takes its owner's client access tokens (jwt), not Basic credentials or URL tokens`);
}
