import { requestWithClientToken } from './client-token';
import { NotFoundError } from './errors';
import type { ApiClient, ApiRequest } from './http';
import type { SessionManager } from './session';
import type { StakingLimits, StakingNetwork, Validator } from './types';
import { waitUntilRunning, type WaitOptions } from './wait';

/** The staking API for one staking chain (avalanche), called with the session's client access token. */
export class StakingApi {
  constructor(
    private readonly api: ApiClient,
    private readonly session: SessionManager,
    readonly chain = 'avalanche',
  ) {}

  /** The networks validators can be made on (mainnet, fuji). */
  networks(): Promise<StakingNetwork[]> {
    return this.call({ method: 'GET', path: `/staking/${this.chain}/chains` });
  }

  /** The network's staking limits, each with where it comes from. */
  limits(network: string): Promise<StakingLimits> {
    return this.call({ method: 'GET', path: `${this.networkPath(network)}/limits` });
  }

  /** Creates a validator: its chainNodeId at once, its node in the background, its node password shown once. */
  create(network: string): Promise<Validator> {
    return this.call({ method: 'POST', path: `${this.networkPath(network)}/validators`, body: {} });
  }

  list(network: string): Promise<Validator[]> {
    return this.call({ method: 'GET', path: `${this.networkPath(network)}/validators` });
  }

  get(network: string, nodeId: string): Promise<Validator> {
    return this.call({ method: 'GET', path: this.validatorPath(network, nodeId) });
  }

  /** Every validator of yours on every network of the chain. */
  async listAll(): Promise<Validator[]> {
    const networks = await this.networks();
    return (await Promise.all(networks.map(({ network }) => this.list(network)))).flat();
  }

  /** Finds a validator by its nodeId on whichever network it is; NotFoundError when on none. */
  async find(nodeId: string): Promise<Validator> {
    for (const { network } of await this.networks()) {
      try {
        return await this.get(network, nodeId);
      } catch (error) {
        if (!(error instanceof NotFoundError)) throw error;
      }
    }
    throw new NotFoundError(404, 'NotFound', `no validator ${nodeId} of yours on any ${this.chain} network`, 'staking');
  }

  /** Deletes a validator and its node; refused (ConflictError) while its stake is locked. */
  remove(network: string, nodeId: string): Promise<Validator> {
    return this.call({ method: 'DELETE', path: this.validatorPath(network, nodeId) });
  }

  /** Polls the validator until its node runs (see waitUntilRunning). */
  waitUntilRunning(network: string, nodeId: string, options?: WaitOptions): Promise<Validator> {
    // Marked as background reads, so a long wait does not fill the events list.
    return waitUntilRunning(nodeId, () => this.call<Validator>({ method: 'GET', path: this.validatorPath(network, nodeId), background: true }), options);
  }

  private networkPath(network: string): string {
    return `/staking/${encodeURIComponent(this.chain)}/${encodeURIComponent(network)}`;
  }

  private validatorPath(network: string, nodeId: string): string {
    return `${this.networkPath(network)}/validators/${encodeURIComponent(nodeId)}`;
  }

  private call<T>(request: Omit<ApiRequest, 'auth'>): Promise<T> {
    return requestWithClientToken(this.api, this.session, request);
  }
}
