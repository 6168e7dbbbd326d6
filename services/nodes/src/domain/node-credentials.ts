import { randomUUID } from 'node:crypto';
import type { Outbox } from '@cloud/bus';
import type { Database } from '@cloud/db';
import { ConflictError, ForbiddenError, NotFoundError } from '@cloud/http';
import { newNodeCredentials } from '@cloud/node-rpc-auth';
import type { NodesRepository } from '../data-access/nodes.repository';
import { lifecycleMessage } from './lifecycle-messages';
import type { NodeCredential, NodeRecord } from './node';
import { notFound } from './nodes';

/** The name of the credential a node is created with. */
export const DEFAULT_CREDENTIAL_NAME = 'default';

/** A credential as the API lists it: never the password, nor its hash. */
export interface CredentialView {
  id: string;
  name: string;
  nodeUser: string;
  createdAt: string;
}

/** A new credential as its creator sees it, once: with the password. */
export type NewCredentialView = CredentialView & { nodePass: string };

/** A new named credential (a fresh user name and 32-byte password) and its password, to show once. */
export function newCredential(name: string, at: Date): { credential: NodeCredential; nodePass: string } {
  const { nodeUser, nodePass, passwordHash } = newNodeCredentials();
  return { credential: { id: `cred-${randomUUID()}`, name, user: nodeUser, passwordSha256: passwordHash, createdAt: at.toISOString() }, nodePass };
}

const toView = ({ id, name, user, createdAt }: NodeCredential): CredentialView => ({ id, name, nodeUser: user, createdAt });

export interface NodeCredentialsDependencies {
  db: Database;
  nodes: NodesRepository;
  outbox: Outbox;
  clock: () => number;
  maxCredentialsPerNode: number;
}

/**
 * A node's named Basic credentials: listed, added (the password shown once) and revoked one by
 * one. Each change raises the node's revision and announces the route (`node.credentials-changed`),
 * so every proxy replica takes or drops the credential at once. A jwt node has none (409).
 */
export class NodeCredentials {
  constructor(private readonly deps: NodeCredentialsDependencies) {}

  async list(userId: string, id: string): Promise<CredentialView[]> {
    const node = await this.deps.nodes.findVisible(userId, id);
    if (!node) throw notFound(id);
    assertBasic(node);
    return node.credentials.map(toView);
  }

  /** The names of the node's credentials by id (none for a jwt node); 404 for a node that is not the user's. */
  async names(userId: string, id: string): Promise<Map<string, string>> {
    const node = await this.deps.nodes.findVisible(userId, id);
    if (!node) throw notFound(id);
    return new Map(node.credentials.map((each) => [each.id, each.name]));
  }

  async create(userId: string, id: string, name: string): Promise<NewCredentialView> {
    const { credential, nodePass } = newCredential(name, new Date(this.deps.clock()));
    await this.change(userId, id, (node) => {
      if (node.credentials.some((each) => each.name === name)) throw new ConflictError(`node ${id} has a credential named ${name} already`);
      const cap = this.deps.maxCredentialsPerNode;
      if (node.credentials.length >= cap) throw new ForbiddenError(`node ${id} has ${cap} credentials, the most allowed; remove one first`, 'LimitExceeded');
      return [...node.credentials, credential];
    });
    return { ...toView(credential), nodePass };
  }

  /** Revokes one credential; the others keep working. The last one cannot go: make another first. */
  async remove(userId: string, id: string, credentialId: string): Promise<CredentialView[]> {
    const node = await this.change(userId, id, (current) => {
      if (!current.credentials.some((each) => each.id === credentialId)) throw new NotFoundError(`node ${id} has no credential ${credentialId}`);
      if (current.credentials.length === 1) throw new ConflictError(`${credentialId} is the last credential of node ${id}; create another before removing it`);
      return current.credentials.filter((each) => each.id !== credentialId);
    });
    return node.credentials.map(toView);
  }

  private async change(userId: string, id: string, next: (node: NodeRecord) => NodeCredential[]): Promise<NodeRecord> {
    const { db, nodes, outbox } = this.deps;
    return db.transaction(async (trx) => {
      const node = await nodes.findVisibleForUpdate(trx, userId, id);
      if (!node) throw notFound(id);
      assertBasic(node);
      const changed = await nodes.setRules(trx, id, { credentials: next(node) }, new Date(this.deps.clock()));
      if (!changed) throw new ConflictError(`node ${id} is being deleted`);
      await outbox.add(trx, [lifecycleMessage('node.credentials-changed', changed)]);
      return changed;
    });
  }
}

function assertBasic(node: NodeRecord): void {
  if (node.jwt) throw new ConflictError(`node ${node.id} takes its owner's client access tokens (jwt), not Basic credentials`);
}
