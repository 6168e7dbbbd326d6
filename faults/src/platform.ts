// The five services, each in its own process (its built dist/main.js, as `npm start -w
// services/<svc>` runs it), configured by the environment like a deployment, logging to a file.
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { call } from './http';
import { freePort, listening, sleep } from './shell';

export type ServiceName = 'accounts' | 'nodes' | 'staking' | 'streams' | 'node-proxy';
export const SERVICES: readonly ServiceName[] = ['accounts', 'nodes', 'staking', 'streams', 'node-proxy'];

const REPO = path.resolve(__dirname, '..', '..');

export interface PlatformSettings {
  dir: string;
  databaseUrl: string;
  amqpUrl: string;
  nodeLeaseSeconds: number;
}

/** One service process; `start` may be called again after it exited (a restart). */
export class ServiceProcess {
  private child?: ChildProcess;
  private exited?: Promise<void>;
  private starts = 0;

  constructor(
    readonly name: string,
    private readonly entry: string,
    /** The port that tells it listens: the API's, or the proxy's admin port. */
    readonly port: number,
    private readonly env: NodeJS.ProcessEnv,
    private readonly logDir: string,
  ) {}

  get readyUrl(): string {
    return `http://127.0.0.1:${this.port}/readyz`;
  }

  get running(): boolean {
    return this.child !== undefined && this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Starts it; `env` adds to (or overrides) its environment from this start on. */
  start(env: NodeJS.ProcessEnv = {}): void {
    if (this.running) throw new Error(`${this.name} is already running`);
    this.starts += 1;
    Object.assign(this.env, env);
    const log = createWriteStream(path.join(this.logDir, `${this.name}.log`), { flags: 'a' });
    log.write(`--- start ${this.starts} at ${new Date().toISOString()}\n`);
    const child = spawn(process.execPath, [path.join(REPO, this.entry)], { cwd: REPO, env: this.env, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.pipe(log, { end: false });
    child.stderr.pipe(log, { end: false });
    this.exited = new Promise((resolve) => child.once('exit', () => resolve()));
    this.child = child;
  }

  /** Resolves once its port accepts connections; throws if the process exits first. */
  async listening(timeoutMs = 60_000): Promise<number> {
    const deadline = Date.now() + timeoutMs;
    while (!(await listening(this.port))) {
      if (!this.running) throw new Error(`${this.name} exited (see ${path.join(this.logDir, `${this.name}.log`)})`);
      if (Date.now() > deadline) throw new Error(`${this.name} did not listen within ${timeoutMs} ms`);
      await sleep(25);
    }
    return Date.now();
  }

  async ready(): Promise<boolean> {
    return (await call('GET', this.readyUrl, { timeoutMs: 1000 })).status === 200;
  }

  /**
   * SIGKILLs the process and its child processes at once, as the end of a container or an
   * out-of-memory kill would (the proxy's workers: killed alone, its primary leaves them to stop
   * cleanly and publish their usage), and waits for its exit.
   */
  async killWithChildren(): Promise<void> {
    const pid = this.child?.pid;
    if (!this.running || pid === undefined) return;
    for (const child of childrenOf(pid)) process.kill(child, 'SIGKILL');
    await this.stop('SIGKILL');
  }

  /** Sends `signal` and waits for the exit (SIGKILL after 15 s). */
  async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    if (!this.running || !this.child) return;
    this.child.kill(signal);
    const timer = setTimeout(() => this.child?.kill('SIGKILL'), 15_000);
    await this.exited;
    clearTimeout(timer);
  }
}

export interface Platform {
  services: Record<ServiceName, ServiceProcess>;
  /** A second nodes-service instance on the same database (experiment 4); not started by default. */
  nodesB: ServiceProcess;
  accountsUrl: string;
  nodesUrl: string;
  stakingUrl: string;
  streamsUrl: string;
  /** The proxy's plain-HTTP eth port (PROXY_TLS=off: TLS belongs to an ingress here). */
  proxyEthUrl: string;
  proxyLtcUrl: string;
  nodesDir: string;
  dataDir: string;
}

export async function definePlatform(settings: PlatformSettings): Promise<Platform> {
  const dataDir = path.join(settings.dir, 'data');
  const nodesDir = path.join(dataDir, 'nodes');
  const ports: number[] = [];
  // Sequentially, each kept out of the next picks: the kernel may hand a just-closed port out again.
  while (ports.length < 12) {
    const port = await freePort();
    if (!ports.includes(port)) ports.push(port);
  }
  const [accountsPort, nodesPort, nodesBPort, stakingPort, streamsPort, adminPort, eth, btc, btcTest, ltc, avax, management] = ports as [
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const accountsUrl = `http://127.0.0.1:${accountsPort}`;
  const common: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: 'production',
    LOG_LEVEL: process.env.FAULTS_LOG_LEVEL ?? 'warn',
    DATA_DIR: dataDir,
    DATABASE_URL: settings.databaseUrl,
    AMQP_URL: settings.amqpUrl,
    AMQP_PREFIX: 'faults',
    ACCOUNTS_URL: accountsUrl,
  };
  const nodesEnv = (port: number, instance: string): NodeJS.ProcessEnv => ({
    ...common,
    NODES_PORT: String(port),
    NODES_INSTANCE_ID: instance,
    NODE_LEASE_SECONDS: String(settings.nodeLeaseSeconds),
    LOCAL_NODES_DIR: nodesDir,
    LITECOIND_PATH: '',
  });
  const logDir = settings.dir;
  const services: Record<ServiceName, ServiceProcess> = {
    accounts: new ServiceProcess(
      'accounts',
      'services/accounts/dist/main.js',
      accountsPort,
      { ...common, ACCOUNTS_PORT: String(accountsPort), BCRYPT_ROUNDS: '4' },
      logDir,
    ),
    nodes: new ServiceProcess('nodes', 'services/nodes/dist/main.js', nodesPort, nodesEnv(nodesPort, 'nodes-a'), logDir),
    staking: new ServiceProcess('staking', 'services/staking/dist/main.js', stakingPort, { ...common, STAKING_PORT: String(stakingPort) }, logDir),
    // Its webhooks go to the experiments' receivers on this machine; one name across restarts, so
    // a restarted process takes its own streams back at once rather than after their leases.
    streams: new ServiceProcess(
      'streams',
      'services/streams/dist/main.js',
      streamsPort,
      { ...common, STREAMS_PORT: String(streamsPort), STREAMS_ALLOW_TARGETS: 'loopback', STREAMS_INSTANCE_ID: 'streams-a', STREAMS_LEASE_MS: '5000' },
      logDir,
    ),
    'node-proxy': new ServiceProcess(
      'node-proxy',
      'services/node-proxy/dist/main.js',
      adminPort,
      {
        ...common,
        PROXY_TLS: 'off',
        PROXY_ADMIN_PORT: String(adminPort),
        PROXY_ETH_PORT: String(eth),
        PROXY_BTC_PORT: String(btc),
        PROXY_BTC_TESTNET_PORT: String(btcTest),
        PROXY_LTC_PORT: String(ltc),
        PROXY_AVALANCHE_PORT: String(avax),
        PROXY_MANAGEMENT_PORT: String(management),
        PROXY_RATE_PER_SECOND: '1000',
        PROXY_RATE_BURST: '1000',
      },
      logDir,
    ),
  };
  return {
    services,
    nodesB: new ServiceProcess('nodes-b', 'services/nodes/dist/main.js', nodesBPort, nodesEnv(nodesBPort, 'nodes-b'), logDir),
    accountsUrl,
    nodesUrl: `http://127.0.0.1:${nodesPort}`,
    stakingUrl: `http://127.0.0.1:${stakingPort}`,
    streamsUrl: `http://127.0.0.1:${streamsPort}`,
    proxyEthUrl: `http://127.0.0.1:${eth}`,
    proxyLtcUrl: `http://127.0.0.1:${ltc}`,
    nodesDir,
    dataDir,
  };
}

/** The processes whose parent is `pid`. */
function childrenOf(pid: number): number[] {
  const children: number[] = [];
  for (const entry of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      // The parent pid is the second field after the command, which is in parentheses and may hold spaces.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid) children.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return children;
}
