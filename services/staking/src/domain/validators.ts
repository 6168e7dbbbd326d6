import type { ProxyAddresses } from '@cloud/chains';
import { randomUUID } from 'node:crypto';
import type { Clock } from '@cloud/auth';
import { message, type NodeRoute, type Outbox } from '@cloud/bus';
import { avalancheNodeIdFromPem, IMAGES, VALIDATOR_IMAGE_IDS, validatorImage, type ValidatorImageId } from '@cloud/chains';
import type { Database } from '@cloud/db';
import { newNodeCredentials } from '@cloud/node-rpc-auth';
import { ConflictError, ForbiddenError, NotFoundError } from '@cloud/http';
import type { ValidatorsRepository } from '../data-access/validators.repository';
import { STAKING_LIMITS, type StakingLimits } from './limits';
import type { Registration } from './registration';
import type { RegistrationReader } from './registration-reader';
import { newStakingTls, type StakingTls } from './staking-certificate';
import type { StakingKeyCipher } from './staking-key-cipher';
import type { ValidatorRecord } from '../data-access/validator-record';
import { toValidatorView, type ValidatorView } from './validator-view';

export interface ValidatorsServiceDependencies {
  db: Database;
  validators: ValidatorsRepository;
  outbox: Outbox;
  cipher: StakingKeyCipher;
  registrations: RegistrationReader;
  clock: Clock;
  addresses: ProxyAddresses;
  maxValidatorsPerUser: number;
}

/** A staking chain's network, as the paths name it. */
export interface StakingNetwork {
  chain: string;
  network: string;
}

/** Where a validator lives: its owner and the network of the path. */
export interface ValidatorScope extends StakingNetwork {
  userId: string;
}

/** The use cases of the staking API and of the nodes service's requests. Each change and its bus message commit together. */
export class ValidatorsService {
  constructor(private readonly deps: ValidatorsServiceDependencies) {}

  /** The networks of a staking chain that validators can be made on. */
  networks(chain: string): StakingNetwork[] {
    const networks = VALIDATOR_IMAGE_IDS.filter((image) => IMAGES[image].chain === chain).map((image) => ({ chain, network: IMAGES[image].network as string }));
    if (networks.length === 0) throw new NotFoundError(`no staking chain ${chain}; offered: ${offeredChains()}`);
    return networks;
  }

  limits(network: StakingNetwork): StakingLimits {
    imageOf(network);
    const limits = STAKING_LIMITS[network.chain]?.[network.network];
    if (!limits) throw new NotFoundError(`no limits known for ${network.chain}/${network.network}`);
    return limits;
  }

  /**
   * Makes a validator: its staking key and certificate (so its NodeID is known at once), its
   * node's Basic credentials (the password shown once, here), and asks the nodes service for its
   * node (`validator.created`).
   */
  async create(scope: ValidatorScope): Promise<ValidatorView> {
    const { db, validators, outbox, cipher, maxValidatorsPerUser } = this.deps;
    const image = imageOf(scope);
    // Checked before the costly RSA key, and again, authoritatively, in the transaction.
    if ((await validators.countUndeleted(db, scope.userId)) >= maxValidatorsPerUser) throw limitExceeded(maxValidatorsPerUser);
    const now = new Date(this.deps.clock());
    const id = `node-${randomUUID()}`;
    const tls = await newStakingTls(now);
    const credentials = newNodeCredentials();
    const validator: ValidatorRecord = {
      id,
      userId: scope.userId,
      chain: scope.chain,
      network: scope.network,
      image,
      chainNodeId: avalancheNodeIdFromPem(tls.certificatePem),
      certificatePem: tls.certificatePem,
      stakingKey: cipher.encrypt(tls.keyPem, id),
      nodeUser: credentials.nodeUser,
      nodePasswordHash: credentials.passwordHash,
      nodeState: 'provisioning',
      nodeStateReason: null,
      nodeDev: null,
      nodeRevision: -1,
      upstreamUrl: null,
      registration: null,
      createdAt: now,
      updatedAt: now,
    };
    await db.transaction(async (trx) => {
      await validators.lockUser(trx, scope.userId);
      if ((await validators.countUndeleted(trx, scope.userId)) >= maxValidatorsPerUser) throw limitExceeded(maxValidatorsPerUser);
      await validators.insert(trx, validator);
      await outbox.add(trx, [
        message(
          'validator.created',
          { nodeId: id, userId: scope.userId, image, basic: { user: credentials.nodeUser, passwordSha256: credentials.passwordHash } },
          now,
        ),
      ]);
    });
    return toValidatorView(validator, await this.deps.registrations.read(validator), this.deps.addresses, credentials.nodePass);
  }

  async list(scope: ValidatorScope): Promise<ValidatorView[]> {
    imageOf(scope);
    const found = await this.deps.validators.listVisible(scope);
    return Promise.all(found.map(async (validator) => this.view(validator, await this.deps.registrations.read(validator))));
  }

  async get(scope: ValidatorScope, id: string): Promise<ValidatorView> {
    const validator = await this.find(scope, id);
    return this.view(validator, await this.deps.registrations.read(validator));
  }

  /**
   * Deletes a validator whose stake is not locked: refused (409) while the P-chain lists it
   * (pending or validating), while a registration seen before has not reached its end time, and
   * while the chain cannot be read through a node that has not failed. Reads the chain afresh.
   */
  async delete(scope: ValidatorScope, id: string): Promise<ValidatorView> {
    const { db, validators, outbox } = this.deps;
    const validator = await this.find(scope, id);
    const registration = await this.deps.registrations.read(validator, { fresh: true });
    const now = new Date(this.deps.clock());
    refuseWhileStaked(validator, registration, now);
    const deleted = await db.transaction(async (trx) => {
      const marked = await validators.markDeleted(trx, id, now);
      if (!marked) throw notFound(id);
      await outbox.add(trx, [message('validator.deleted', { nodeId: id, userId: scope.userId }, now)]);
      return marked;
    });
    this.deps.registrations.forget(id);
    return this.view(deleted, registration);
  }

  /** The staking certificate and key of a validator's node, for the nodes service's driver; throws for an unknown or deleted validator. */
  async stakingTls(nodeId: string): Promise<StakingTls> {
    const validator = await this.deps.validators.findUndeleted(nodeId);
    if (!validator) throw new Error(`no validator ${nodeId}`);
    return { certificatePem: validator.certificatePem, keyPem: this.deps.cipher.decrypt(validator.stakingKey, validator.id) };
  }

  /** Follows the nodes service's announcement of a node (state, upstream); ignores older news and nodes that are not validators. */
  async applyNodeRoute(route: NodeRoute & { reason?: string }): Promise<void> {
    if (await this.deps.validators.applyNodeRoute(route, new Date(this.deps.clock()))) this.deps.registrations.forget(route.nodeId);
  }

  /**
   * Forgets the validators of a deleted user. The nodes service deletes the user's nodes itself
   * (it hears the same deletion), so no `validator.deleted` is sent. Idempotent.
   */
  async deleteAllOf(userId: string): Promise<void> {
    for (const id of await this.deps.validators.markAllDeletedOf(userId, new Date(this.deps.clock()))) this.deps.registrations.forget(id);
  }

  private async find(scope: ValidatorScope, id: string): Promise<ValidatorRecord> {
    imageOf(scope);
    const validator = await this.deps.validators.findVisible({ ...scope, id });
    if (!validator) throw notFound(id);
    return validator;
  }

  private view(validator: ValidatorRecord, registration: Registration): ValidatorView {
    return toValidatorView(validator, registration, this.deps.addresses);
  }
}

/** The validator image of a network, or 404 for a chain or network we make no validators on. */
function imageOf({ chain, network }: StakingNetwork): ValidatorImageId {
  const image = validatorImage(chain, network);
  if (!image) throw new NotFoundError(`no staking network ${chain}/${network}; offered: ${offeredChains()}`);
  return image;
}

const offeredChains = () => VALIDATOR_IMAGE_IDS.map((image) => `${IMAGES[image].chain}/${IMAGES[image].network}`).join(', ');

const limitExceeded = (max: number) => new ForbiddenError(`you have ${max} validators, the most allowed; delete one first`, 'LimitExceeded');

// Another user's validator, or one on another network, is as absent as one that never was.
const notFound = (id: string) => new NotFoundError(`no validator ${id}`);

function refuseWhileStaked(validator: ValidatorRecord, registration: Registration, now: Date): void {
  const { status } = registration;
  if (status === 'pending' || status === 'validating') {
    throw new ConflictError(
      `validator ${validator.id} is ${status === 'pending' ? `registered on the P-chain from ${registration.startTime}` : 'validating on the P-chain'} until ${registration.endTime}: its stake can't be removed early; delete it after ${registration.endTime}`,
    );
  }
  if (status !== 'unknown' && status !== 'starting') return;
  // Unknown, but a registration seen before runs until `endTime`: it cannot have been undone.
  if (registration.endTime && Date.parse(registration.endTime) > now.getTime()) {
    throw new ConflictError(
      `validator ${validator.id} was seen registered on the P-chain until ${registration.endTime} and the chain can't be read now (${registration.reason}); delete it after ${registration.endTime}`,
    );
  }
  if (status === 'starting') {
    throw new ConflictError(
      `validator ${validator.id} is starting (${registration.reason}): whether its stake is locked is known once the P-chain can be read through its node; try again once the node runs`,
    );
  }
  // A failed node validates nothing; any other node may be registered without our knowing.
  if (validator.nodeState !== 'failed') {
    throw new ConflictError(
      `the P-chain can't be read through validator ${validator.id}'s node (${registration.reason}), so whether its stake is locked is not known; try again once the node runs`,
    );
  }
}
