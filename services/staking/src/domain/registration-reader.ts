import type { Clock } from '@cloud/auth';
import type { Logger } from '@cloud/logging';
import { ChainReadError, type PChainClient } from '../data-access/p-chain.client';
import type { ValidatorsRepository } from '../data-access/validators.repository';
import { observationOf, registrationOf, sameRegistration, startingRegistration, type ChainAnswer, type Registration } from './registration';
import type { ValidatorRecord } from '../data-access/validator-record';

export interface RegistrationReaderDependencies {
  client: PChainClient;
  validators: ValidatorsRepository;
  clock: Clock;
  logger: Logger;
  /** How long a node's answer is reused (by the injected clock). */
  cacheMs: number;
}

interface CachedAnswer {
  upstream: string;
  askedAt: number;
  answer: Promise<ChainAnswer>;
}

/**
 * Reads validators' registrations from the P-chain through their own nodes, keeping each node's
 * answer (or failure to answer) for `cacheMs`, so a busy list does not become a stream of
 * P-chain calls. Calls in flight are shared. A registration the chain lists is also kept in the
 * validator's row, so it is known after the chain stops listing it, or while the node is away.
 */
export class RegistrationReader {
  private readonly cache = new Map<string, CachedAnswer>();

  constructor(private readonly deps: RegistrationReaderDependencies) {}

  /** The validator's registration now; `fresh` skips the cache (a decision that can't be undone rests on it). Never throws for an unreachable node. */
  async read(validator: ValidatorRecord, options: { fresh?: boolean } = {}): Promise<Registration> {
    const { clock } = this.deps;
    const starting = whyStarting(validator);
    if (starting !== undefined) return startingRegistration(starting, validator.registration, new Date(clock()));
    const notRunning = whyNotReadable(validator);
    if (notRunning !== undefined || !validator.upstreamUrl) {
      return registrationOf(
        { checkedAt: new Date(clock()), unreadable: notRunning ?? "the node's address is not known yet" },
        validator.registration,
        new Date(clock()),
      );
    }
    const answer = await this.answerFor(validator, validator.upstreamUrl, options.fresh ?? false);
    let observed = validator.registration;
    if ('listed' in answer && answer.listed) {
      const seen = observationOf(answer.listed, answer.checkedAt);
      if (!sameRegistration(observed, seen)) {
        observed = seen;
        await this.deps.validators.recordRegistration(validator.id, seen).catch((error: unknown) => {
          this.deps.logger.warn('could not keep the observed registration', { nodeId: validator.id, error });
        });
      }
    }
    return registrationOf(answer, observed, new Date(clock()));
  }

  /** Drops what is kept of a validator (deleted, or its node moved). */
  forget(nodeId: string): void {
    this.cache.delete(nodeId);
  }

  private answerFor(validator: ValidatorRecord, upstream: string, fresh: boolean): Promise<ChainAnswer> {
    const now = this.deps.clock();
    const cached = this.cache.get(validator.id);
    if (!fresh && cached && cached.upstream === upstream && now - cached.askedAt < this.deps.cacheMs) return cached.answer;
    this.sweep(now);
    const entry: CachedAnswer = { upstream, askedAt: now, answer: this.ask(validator, upstream) };
    this.cache.set(validator.id, entry);
    return entry.answer;
  }

  private async ask(validator: ValidatorRecord, upstream: string): Promise<ChainAnswer> {
    const checkedAt = new Date(this.deps.clock());
    try {
      return { checkedAt, listed: await this.deps.client.currentValidator(upstream, validator.id, validator.chainNodeId) };
    } catch (error) {
      const reason = error instanceof ChainReadError ? error.message : 'reading the P-chain failed';
      if (!(error instanceof ChainReadError)) this.deps.logger.error('reading the P-chain failed', { nodeId: validator.id, error });
      else this.deps.logger.debug('P-chain not readable through the node', { nodeId: validator.id, reason });
      return { checkedAt, unreadable: reason };
    }
  }

  private sweep(now: number): void {
    for (const [nodeId, entry] of this.cache) {
      if (now - entry.askedAt >= this.deps.cacheMs) this.cache.delete(nodeId);
    }
  }
}

/** Why the chain is not read yet while the node comes up; undefined for a node that is not coming up. */
function whyStarting(validator: ValidatorRecord): string | undefined {
  if (validator.nodeState === 'provisioning') return 'its node is provisioning; the P-chain is read once it runs';
  if (validator.nodeState === 'syncing') return 'its node is bootstrapping the P-chain (syncing); it is read once the node runs';
  return undefined;
}

function whyNotReadable(validator: ValidatorRecord): string | undefined {
  switch (validator.nodeState) {
    case 'running':
      return undefined;
    case 'failed':
      return `the node failed${validator.nodeStateReason ? `: ${validator.nodeStateReason}` : ''}`;
    default:
      return 'the node is being deleted';
  }
}
