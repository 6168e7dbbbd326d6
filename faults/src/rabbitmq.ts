// The suite's own RabbitMQ node, beside the machine's: its own node name, AMQP and distribution
// ports, config, plugins, mnesia and log folders, so stopping it hurts nobody else. As root the
// node runs as the `rabbitmq` user (as the Debian wrapper does), whose home holds the Erlang cookie
// that rabbitmqctl needs too.
import { chownSync, mkdirSync, writeFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import path from 'node:path';
import { listening, runOrThrow, waitFor } from './shell';

const RABBITMQ_BIN = process.env.RABBITMQ_BIN_DIR ?? '/usr/lib/rabbitmq/bin';

export class OwnRabbitMq {
  readonly nodeName: string;
  private readonly asRoot = userInfo().uid === 0;

  constructor(
    private readonly dir: string,
    readonly port: number,
    private readonly distPort: number,
  ) {
    this.nodeName = `faults-${process.pid}@localhost`;
  }

  get url(): string {
    return `amqp://guest:guest@127.0.0.1:${this.port}`;
  }

  private env(): NodeJS.ProcessEnv {
    return {
      PATH: process.env.PATH,
      ...(this.asRoot ? { HOME: '/var/lib/rabbitmq' } : { HOME: process.env.HOME }),
      RABBITMQ_NODENAME: this.nodeName,
      RABBITMQ_NODE_PORT: String(this.port),
      RABBITMQ_DIST_PORT: String(this.distPort),
      // Our own (empty) env file and config: the machine's set the node name and port 5672.
      RABBITMQ_CONF_ENV_FILE: path.join(this.dir, 'rabbitmq-env.conf'),
      RABBITMQ_CONFIG_FILE: path.join(this.dir, 'rabbitmq.conf'),
      RABBITMQ_ENABLED_PLUGINS_FILE: path.join(this.dir, 'enabled_plugins'),
      RABBITMQ_MNESIA_BASE: path.join(this.dir, 'mnesia'),
      RABBITMQ_LOG_BASE: path.join(this.dir, 'log'),
      RABBITMQ_PID_FILE: path.join(this.dir, 'rabbitmq.pid'),
      ERL_EPMD_ADDRESS: '127.0.0.1',
    };
  }

  private tool(name: string, args: string[], timeoutMs = 60_000): Promise<string> {
    const file = path.join(RABBITMQ_BIN, name);
    return this.asRoot
      ? runOrThrow('runuser', ['-u', 'rabbitmq', '--', 'env', ...Object.entries(this.env()).map(([k, v]) => `${k}=${v ?? ''}`), file, ...args], {
          cwd: '/',
          timeoutMs,
        })
      : runOrThrow(file, args, { env: this.env(), timeoutMs });
  }

  async start(): Promise<void> {
    mkdirSync(this.dir, { recursive: true });
    writeFileSync(path.join(this.dir, 'rabbitmq-env.conf'), '');
    writeFileSync(path.join(this.dir, 'rabbitmq.conf'), `listeners.tcp.default = 127.0.0.1:${this.port}\n`);
    writeFileSync(path.join(this.dir, 'enabled_plugins'), '[].\n');
    if (this.asRoot) {
      const uid = Number((await runOrThrow('id', ['-u', 'rabbitmq'])).trim());
      const gid = Number((await runOrThrow('id', ['-g', 'rabbitmq'])).trim());
      for (const entry of ['', 'rabbitmq-env.conf', 'rabbitmq.conf', 'enabled_plugins']) chownSync(path.join(this.dir, entry), uid, gid);
    }
    await this.tool('rabbitmq-server', ['-detached']);
    await this.waitUp(120_000);
  }

  private async waitUp(timeoutMs: number): Promise<void> {
    await waitFor(`RabbitMQ node ${this.nodeName} to listen on ${this.port}`, () => listening(this.port), timeoutMs, 250);
  }

  /** Stops the broker application (connections closed, port shut), the Erlang node staying up. */
  async stopApp(): Promise<void> {
    await this.tool('rabbitmqctl', ['-n', this.nodeName, 'stop_app']);
  }

  async startApp(): Promise<void> {
    await this.tool('rabbitmqctl', ['-n', this.nodeName, 'start_app']);
    await this.waitUp(60_000);
  }

  /** Messages in every queue whose name ends in `.dead`. */
  async deadLetters(): Promise<Record<string, number>> {
    const out = await this.tool('rabbitmqctl', ['-n', this.nodeName, '-q', 'list_queues', '--no-table-headers', 'name', 'messages']);
    const counts: Record<string, number> = {};
    for (const line of out.split('\n')) {
      const [name, messages] = line.trim().split(/\s+/);
      if (name?.endsWith('.dead') && Number(messages) > 0) counts[name] = Number(messages);
    }
    return counts;
  }

  async destroy(): Promise<void> {
    await this.tool('rabbitmqctl', ['-n', this.nodeName, 'stop'], 60_000).catch(() => undefined);
  }
}
