// The suite's own PostgreSQL cluster: initdb into a temporary folder and pg_ctl on a free port, so
// stopping it hurts nobody else. PostgreSQL refuses to run as root (CI runs as root), so the
// server runs as the `postgres` OS user through runuser when we are root.
import { chownSync, existsSync, mkdirSync, readdirSync } from 'node:fs';
import { userInfo } from 'node:os';
import path from 'node:path';
import { run, runOrThrow, waitFor } from './shell';

/** The newest installed server's bin folder (Debian: /usr/lib/postgresql/<major>/bin), or PATH. */
function binDir(): string {
  if (process.env.PG_BIN_DIR) return process.env.PG_BIN_DIR;
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return '';
  const majors = readdirSync(root)
    .filter((name) => /^\d+$/.test(name))
    .sort((a, b) => Number(b) - Number(a));
  return majors[0] ? path.join(root, majors[0], 'bin') : '';
}

export class OwnPostgres {
  private readonly bin = binDir();
  private readonly dataDir: string;
  private readonly asRoot = userInfo().uid === 0;

  constructor(
    private readonly dir: string,
    readonly port: number,
  ) {
    this.dataDir = path.join(dir, 'pgdata');
  }

  get url(): string {
    return `postgres://postgres@127.0.0.1:${this.port}/faults`;
  }

  private tool(name: string): string {
    return this.bin ? path.join(this.bin, name) : name;
  }

  /** Runs a server tool as the `postgres` user when we are root, as ourselves otherwise. */
  private asServerUser(name: string, args: string[]): Promise<string> {
    return this.asRoot ? runOrThrow('runuser', ['-u', 'postgres', '--', this.tool(name), ...args], { cwd: '/' }) : runOrThrow(this.tool(name), args);
  }

  async init(): Promise<void> {
    mkdirSync(this.dataDir, { recursive: true });
    if (this.asRoot) {
      const { uid, gid } = await this.postgresIds();
      chownSync(this.dir, uid, gid);
      chownSync(this.dataDir, uid, gid);
    }
    await this.asServerUser('initdb', ['-D', this.dataDir, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8']);
    await this.start();
    await runOrThrow(this.tool('createdb'), ['-h', '127.0.0.1', '-p', String(this.port), '-U', 'postgres', 'faults']);
  }

  private async postgresIds(): Promise<{ uid: number; gid: number }> {
    const [uid, gid] = await Promise.all([runOrThrow('id', ['-u', 'postgres']), runOrThrow('id', ['-g', 'postgres'])]);
    return { uid: Number(uid.trim()), gid: Number(gid.trim()) };
  }

  async start(): Promise<void> {
    // Unix socket in our folder (not /var/run/postgresql, which the machine's server uses); fsync
    // off: a crash of this throw-away cluster does not matter, and the suite shares two cores.
    const options = `-p ${this.port} -k ${this.dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`;
    await this.asServerUser('pg_ctl', ['-D', this.dataDir, '-l', path.join(this.dir, 'postgres.log'), '-o', options, '-w', 'start']);
    await waitFor('PostgreSQL to accept connections', () => this.ready(), 30_000);
  }

  /** A fast shutdown: open sessions are ended, the server stops at once. */
  async stopFast(): Promise<void> {
    await this.asServerUser('pg_ctl', ['-D', this.dataDir, '-m', 'fast', '-w', 'stop']);
  }

  async ready(): Promise<boolean> {
    return (await run(this.tool('pg_isready'), ['-q', '-h', '127.0.0.1', '-p', String(this.port)])).code === 0;
  }

  /** Rows of a query, each a list of column texts (psql's unaligned output). */
  async query(sql: string): Promise<string[][]> {
    const out = await runOrThrow(this.tool('psql'), [
      '-h',
      '127.0.0.1',
      '-p',
      String(this.port),
      '-U',
      'postgres',
      '-d',
      'faults',
      '-v',
      'ON_ERROR_STOP=1',
      '-AtF',
      '\t',
      '-c',
      sql,
    ]);
    return out
      .split('\n')
      .filter((line) => line.length > 0)
      .map((line) => line.split('\t'));
  }

  async destroy(): Promise<void> {
    if (await this.ready()) await this.stopFast().catch(() => undefined);
  }
}
