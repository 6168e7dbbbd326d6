// The steady load: every user calls the three APIs in turn (each call names its own x-request-id,
// which the call event carries, so every answered call can be found among the stored events) and,
// in a second loop, its eth node through the proxy.
import { call } from './http';
import type { Platform } from './platform';
import { rpcOk, type LoadUser } from './setup';
import { sleep } from './shell';

export interface ApiResult {
  at: number;
  service: string;
  status: number;
  retryAfter: boolean;
  requestId: string;
}

export interface RpcResult {
  at: number;
  ok: boolean;
  /** The node called. */
  nodeId: string;
}

export class Load {
  readonly api: ApiResult[] = [];
  readonly rpc: RpcResult[] = [];
  /** The first body of each kind of answer other than 2xx ("nodes 401"), to say why. */
  readonly samples = new Map<string, string>();
  private running = false;
  private loops: Promise<void>[] = [];
  private sequence = 0;

  constructor(
    private readonly platform: Platform,
    private readonly users: readonly LoadUser[],
    /** Prefix of this experiment's request ids. */
    readonly prefix: string,
    private readonly pauseMs: number,
  ) {}

  start(): void {
    this.running = true;
    for (const user of this.users) this.loops.push(this.apiLoop(user), this.rpcLoop(user));
  }

  async stop(): Promise<void> {
    this.running = false;
    await Promise.all(this.loops);
    this.loops = [];
  }

  private requests(user: LoadUser): { service: string; url: string; token: string }[] {
    const { accountsUrl, nodesUrl, stakingUrl } = this.platform;
    return [
      { service: 'accounts', url: `${accountsUrl}/users/me`, token: user.accountToken },
      { service: 'nodes', url: `${nodesUrl}/users/me/nodes/${user.nodeId}`, token: user.clientToken },
      { service: 'nodes', url: `${nodesUrl}/users/me/nodes`, token: user.clientToken },
      { service: 'staking', url: `${stakingUrl}/staking/avalanche/fuji/validators`, token: user.clientToken },
    ];
  }

  private async apiLoop(user: LoadUser): Promise<void> {
    const requests = this.requests(user);
    for (let i = 0; this.running; i += 1) {
      const { service, url, token } = requests[i % requests.length]!;
      this.sequence += 1;
      const requestId = `${this.prefix}${this.sequence}`;
      const answer = await call('GET', url, { headers: { authorization: `Bearer ${token}`, 'x-request-id': requestId } });
      this.api.push({ at: Date.now(), service, status: answer.status, retryAfter: answer.headers['retry-after'] !== undefined, requestId });
      const kind = `${service} ${answer.status || 'no answer'}`;
      if ((answer.status < 200 || answer.status > 299) && !this.samples.has(kind)) this.samples.set(kind, (answer.body || answer.error || '').slice(0, 160));
      await sleep(this.pauseMs);
    }
  }

  private async rpcLoop(user: LoadUser): Promise<void> {
    while (this.running) {
      this.rpc.push({ at: Date.now(), ok: await rpcOk(this.platform, user), nodeId: user.nodeId });
      await sleep(this.pauseMs);
    }
  }
}
