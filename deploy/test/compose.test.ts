import { execFileSync, spawnSync } from 'node:child_process';
import { ACCOUNTS_SHUTDOWN } from '@cloud/accounts';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { loadCompose } from './support/compose';
import { IMAGE_NAMES, imageBuild, PROXY_PUBLIC_PORTS, REPO_ROOT, SERVICE_NAMES, SERVICES, unknownVariables, validateEnvironment } from './support/services';

const compose = loadCompose();
const service = (name: string) => {
  const found = compose.services[name];
  if (!found) throw new Error(`docker-compose.yml has no service ${name}`);
  return found;
};
const envOf = (name: string) => service(name).environment ?? {};
const KEY_FILES = [
  'AUTH_SIGNING_KEY_FILE',
  'CLIENT_SECRET_HASH_KEY_FILE',
  'TWO_FACTOR_KEY_FILE',
  'NODE_RPC_KEY_FILE',
  'STAKING_KEY_ENCRYPTION_KEY_FILE',
  'STREAMS_SECRET_KEY_FILE',
];
// The services reading the nodes' RPC: one key derives every node's internal login.
const NODE_READERS = ['nodes', 'staking', 'streams', 'node-proxy'];

describe('docker-compose.yml', () => {
  it('runs PostgreSQL, RabbitMQ, an SMTP catcher, the key maker, the five services, the console and the gateway', () => {
    expect(Object.keys(compose.services)).toEqual(expect.arrayContaining(['postgres', 'rabbitmq', 'mailpit', 'keys', 'gateway', ...IMAGE_NAMES]));
  });

  it('builds each service (services/Dockerfile, SERVICE naming it) and the console (its own Dockerfile) with the repository as the context', () => {
    for (const name of IMAGE_NAMES) {
      expect(service(name).build).toEqual(imageBuild(name));
      expect(existsSync(path.join(REPO_ROOT, imageBuild(name).dockerfile))).toBe(true);
      expect(service(name).image).toBe(`cloud-nodes/${name}:local`);
    }
  });

  describe.each(IMAGE_NAMES)('%s', (name) => {
    it('gets an environment its configuration accepts, with no variable it does not read', () => {
      const env = envOf(name);
      expect(unknownVariables(name, env)).toEqual([]);
      expect(() => validateEnvironment(name, env)).not.toThrow();
    });
  });

  describe.each(SERVICE_NAMES)('%s', (name) => {
    it('uses the real parts: RabbitMQ, PostgreSQL with migrations left to the one-shot service, every interface', () => {
      const env = envOf(name);
      expect(env.AMQP_URL).toMatch(/^amqp:\/\/[^@]+@rabbitmq:5672$/);
      expect(env[SERVICES[name].hostVariable]).toBe('0.0.0.0');
      expect(env.NODE_ENV).toBe('production');
      if (SERVICES[name].migrates) {
        expect(env.DATABASE_URL).toMatch(/^postgres:\/\/[^@]+@postgres:5432\/cloud$/);
        expect(env.RUN_MIGRATIONS).toBe('false');
      } else {
        expect(env.DATABASE_URL).toBeUndefined();
      }
    });
  });

  it('shares one database among the services (a schema each) and one message broker', () => {
    const urls = (variable: string) => new Set(SERVICE_NAMES.map((name) => envOf(name)[variable]).filter(Boolean));
    expect(urls('DATABASE_URL').size).toBe(1);
    expect(urls('AMQP_URL').size).toBe(1);
  });

  it('migrates each schema once, before its service starts', () => {
    for (const name of SERVICE_NAMES.filter((n) => SERVICES[n].migrates)) {
      const migrate = service(`${name}-migrate`);
      expect(migrate.image).toBe(service(name).image);
      expect(migrate.command).toEqual(['node', 'dist/migrate.js']);
      expect(migrate.environment?.DATABASE_URL).toBe(envOf(name).DATABASE_URL);
      expect(() => validateEnvironment(name, migrate.environment ?? {})).not.toThrow();
      expect(migrate.depends_on?.postgres).toEqual({ condition: 'service_healthy' });
      expect(service(name).depends_on?.[`${name}-migrate`]).toEqual({ condition: 'service_completed_successfully' });
    }
  });

  it('gives every service that reads a key the same file, from the keys volume made once before them', () => {
    const keysVolume = (name: string) => (service(name).volumes ?? []).find((volume) => volume.startsWith('keys:/keys'));
    expect(service('keys').entrypoint).toEqual(['node', '/opt/make-keys.js', '/keys']);
    for (const name of SERVICE_NAMES) {
      const env = envOf(name);
      const files = KEY_FILES.filter((variable) => env[variable] !== undefined);
      expect(files.length).toBeGreaterThan(0);
      for (const variable of files) expect(env[variable]).toMatch(/^\/keys\/[a-z-]+\.(pem|key)$/);
      expect(keysVolume(name)).toBe('keys:/keys:ro');
      expect(service(name).depends_on?.keys).toEqual({ condition: 'service_completed_successfully' });
    }
    expect(new Set(NODE_READERS.map((name) => envOf(name).NODE_RPC_KEY_FILE)).size).toBe(1);
    expect(envOf('streams').STREAMS_SECRET_KEY_FILE).toBe('/keys/streams-secrets.key');
  });

  it('runs nodes on the local driver, with the proxy, staking and streams on its network to reach them', () => {
    expect(envOf('nodes').NODE_DRIVER).toBe('local');
    expect(service('node-proxy').network_mode).toBe('service:nodes');
    expect(service('staking').network_mode).toBe('service:nodes');
    expect(service('streams').network_mode).toBe('service:nodes');
    const domains = new Set(['nodes', 'staking', 'node-proxy'].map((name) => envOf(name).NODE_DOMAIN));
    expect([...domains]).toEqual(['nodes.localhost']);
    for (const name of NODE_READERS) expect(envOf(name).ACCOUNTS_URL).toBe('http://accounts:3001');
  });

  it("publishes the proxy chain ports and the gateway; operators' ports on 127.0.0.1 only", () => {
    const published = (service('nodes').ports ?? []).map((mapping) => mapping.split(':'));
    for (const port of PROXY_PUBLIC_PORTS) expect(published).toContainEqual([String(port), String(port)]);
    expect(published).toContainEqual(['127.0.0.1', '9464', '9464']);
    expect(service('gateway').ports).toEqual(['8000:8080']);
    for (const name of ['rabbitmq', 'mailpit']) {
      for (const mapping of service(name).ports ?? []) expect(mapping).toMatch(/^127\.0\.0\.1:/);
    }
  });

  it('waits longer for the accounts service to stop than it takes to (its exit bound after SIGTERM)', () => {
    const grace = /^(\d+)s$/.exec(service('accounts').stop_grace_period ?? '10s');
    expect(Number(grace?.[1]) * 1000).toBeGreaterThan(ACCOUNTS_SHUTDOWN.exitBoundMs);
  });

  it('sends e-mail to the SMTP catcher and links to the gateway, whose `/` is the console', () => {
    expect(envOf('accounts').SMTP_URL).toBe('smtp://mailpit:1025');
    expect(envOf('accounts').PUBLIC_ACCOUNTS_URL).toBe('http://localhost:8000');
    expect(envOf('accounts').CONSOLE_URL).toBe('http://localhost:8000');
  });

  it("runs the console alone, telling the page the gateway's published address for the APIs", () => {
    const env = envOf('console');
    expect(env).toMatchObject({ NODE_ENV: 'production', CONSOLE_HOST: '0.0.0.0', CONSOLE_API_URL: 'http://localhost:8000' });
    // Its server reads no database, bus or key, publishes nothing (the gateway reaches it) and waits for nothing.
    expect(Object.keys(env).filter((variable) => /^(DATABASE|AMQP)_URL$|_FILE$/.test(variable))).toEqual([]);
    expect(service('console').ports).toBeUndefined();
    expect(service('console').depends_on).toBeUndefined();
    expect(service('gateway').depends_on?.console).toEqual({ condition: 'service_started' });
    // The gateway's address follows GATEWAY_PORT for the page as for the e-mails.
    const moved = loadCompose({ GATEWAY_PORT: '9000' });
    expect(moved.services.console?.environment?.CONSOLE_API_URL).toBe('http://localhost:9000');
    expect(moved.services.accounts?.environment?.CONSOLE_URL).toBe('http://localhost:9000');
  });

  it('is valid for docker compose itself (`docker compose` or docker-compose; .ci/run installs the latter)', () => {
    const candidates: string[][] = [['docker', 'compose'], ['docker-compose']];
    const client = candidates.find(([bin, ...args]) => spawnSync(bin as string, [...args, 'version'], { stdio: 'ignore' }).status === 0);
    if (!client) throw new Error('no compose client: install the docker compose plugin, or docker-compose (apt-get install docker-compose)');
    const [bin, ...args] = client as [string, ...string[]];
    expect(() => execFileSync(bin, [...args, '-f', path.join(REPO_ROOT, 'docker-compose.yml'), 'config', '-q'], { stdio: 'pipe' })).not.toThrow();
  });
});
