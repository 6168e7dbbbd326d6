import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT, SERVICE_NAMES, SERVICES } from './support/services';

interface Instruction {
  keyword: string;
  args: string;
}

/** A Dockerfile's instructions, continuation lines joined, comments dropped. */
function instructions(text: string): Instruction[] {
  return text
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const [keyword = '', ...rest] = line.split(/\s+/);
      return { keyword: keyword.toUpperCase(), args: rest.join(' ') };
    });
}

describe.each(SERVICE_NAMES)('services/%s/Dockerfile', (service) => {
  const file = path.join(REPO_ROOT, 'services', service, 'Dockerfile');
  const all = existsSync(file) ? instructions(readFileSync(file, 'utf8')) : [];
  const stages = all.filter((i) => i.keyword === 'FROM');
  const runtime = all.slice(all.lastIndexOf(stages[stages.length - 1] as Instruction));

  it('exists and is multi-stage: the runtime stage copies the build from an earlier one', () => {
    expect(existsSync(file)).toBe(true);
    expect(stages.length).toBeGreaterThanOrEqual(2);
    expect(runtime.some((i) => i.keyword === 'COPY' && /--from=build\b/.test(i.args))).toBe(true);
  });

  it('builds only what the service needs: turbo prune, npm ci, turbo build with its dependencies, production dependencies kept', () => {
    const runs = all.filter((i) => i.keyword === 'RUN').map((i) => i.args);
    expect(runs.some((run) => run.includes(`turbo prune @cloud/${service} --docker`))).toBe(true);
    expect(runs.some((run) => /\bnpm ci\b/.test(run))).toBe(true);
    expect(runs.some((run) => run.includes(`turbo run build --filter=@cloud/${service}...`))).toBe(true);
    expect(runs.some((run) => run.includes('npm prune --omit=dev'))).toBe(true);
  });

  it('runs node dist/main.js as a non-root user', () => {
    const users = runtime.filter((i) => i.keyword === 'USER').map((i) => i.args);
    expect(users.length).toBeGreaterThan(0);
    expect(users[users.length - 1]).not.toMatch(/^(root|0)(:|$)/);
    const cmd = runtime.filter((i) => i.keyword === 'CMD').pop();
    expect(JSON.parse(cmd?.args ?? 'null')).toEqual(['node', 'dist/main.js']);
    const workdir = runtime.filter((i) => i.keyword === 'WORKDIR').pop();
    expect(workdir?.args).toBe(`/app/services/${service}`);
  });

  it('exposes its ports and checks its health on /healthz', () => {
    const exposed = runtime.filter((i) => i.keyword === 'EXPOSE').flatMap((i) => i.args.split(/\s+/).map(Number));
    expect(exposed.sort()).toEqual([...SERVICES[service].ports].sort());
    const healthcheck = runtime.find((i) => i.keyword === 'HEALTHCHECK')?.args ?? '';
    const [variable, port] = SERVICES[service].healthPort;
    expect(healthcheck).toContain('/healthz');
    expect(healthcheck).toContain(`process.env.${variable} || ${port}`);
  });

  it('listens on every interface in the container', () => {
    const env = runtime.filter((i) => i.keyword === 'ENV').map((i) => i.args).join(' ');
    expect(env).toContain(`${SERVICES[service].hostVariable}=0.0.0.0`);
    expect(env).toContain('NODE_ENV=production');
  });
});

describe('.dockerignore', () => {
  it('keeps installed, built, local and secret files out of the build context', () => {
    const lines = readFileSync(path.join(REPO_ROOT, '.dockerignore'), 'utf8').split('\n');
    for (const pattern of ['**/node_modules', '**/dist', '**/.data', '**/.env', '.git', 'deploy/kubernetes/overlays/*/secrets']) {
      expect(lines).toContain(pattern);
    }
  });
});
