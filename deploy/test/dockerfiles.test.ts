import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { IMAGE_NAMES, IMAGES, imageBuild, REPO_ROOT } from './support/services';

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

/** A Dockerfile's instructions with the build arguments put in. */
function expanded(all: Instruction[], args: Record<string, string> = {}): Instruction[] {
  return all.map((i) => ({ ...i, args: i.args.replace(/\$\{(\w+)\}/g, (variable, name: string) => args[name] ?? variable) }));
}

/** The instructions of the image's last stage and of the stages it is built on, base first. */
function runtimeOf(all: Instruction[]): Instruction[] {
  const stages = new Map<string, { base: string; body: Instruction[] }>();
  let last: { base: string; body: Instruction[] } = { base: '', body: [] };
  for (const instruction of all) {
    if (instruction.keyword === 'FROM') {
      const [base = '', , name = ''] = instruction.args.split(/\s+/);
      last = { base, body: [] };
      stages.set(name, last);
    } else last.body.push(instruction);
  }
  const runtime: Instruction[] = [];
  for (let stage: typeof last | undefined = last; stage; stage = stages.get(stage.base)) runtime.unshift(...stage.body);
  return runtime;
}

describe.each(IMAGE_NAMES)('the image of %s', (image) => {
  const { dockerfile, args } = imageBuild(image);
  const file = path.join(REPO_ROOT, dockerfile);
  const all = existsSync(file) ? expanded(instructions(readFileSync(file, 'utf8')), args) : [];
  const stages = all.filter((i) => i.keyword === 'FROM');
  const runtime = runtimeOf(all);

  it('exists and is multi-stage: the runtime stage copies the build from an earlier one', () => {
    expect(existsSync(file)).toBe(true);
    expect(stages.length).toBeGreaterThanOrEqual(2);
    expect(runtime.some((i) => i.keyword === 'COPY' && /--from=build\b/.test(i.args))).toBe(true);
  });

  it('builds only what the image needs: turbo prune, npm ci, turbo build with its dependencies, production dependencies kept', () => {
    const runs = all.filter((i) => i.keyword === 'RUN').map((i) => i.args);
    expect(runs.some((run) => run.includes(`turbo prune @cloud/${image} --docker`))).toBe(true);
    expect(runs.some((run) => /\bnpm ci\b/.test(run))).toBe(true);
    expect(runs.some((run) => run.includes(`turbo run build --filter=@cloud/${image}...`))).toBe(true);
    expect(runs.some((run) => run.includes('npm prune --omit=dev'))).toBe(true);
  });

  it('runs node dist/main.js as a non-root user', () => {
    const users = runtime.filter((i) => i.keyword === 'USER').map((i) => i.args);
    expect(users.length).toBeGreaterThan(0);
    expect(users[users.length - 1]).not.toMatch(/^(root|0)(:|$)/);
    const cmd = runtime.filter((i) => i.keyword === 'CMD').pop();
    expect(JSON.parse(cmd?.args ?? 'null')).toEqual(['node', 'dist/main.js']);
    const workdir = runtime.filter((i) => i.keyword === 'WORKDIR').pop();
    expect(workdir?.args).toBe(`/app/${IMAGES[image].dir}`);
  });

  it('exposes its ports and checks its health on /healthz', () => {
    const exposed = runtime.filter((i) => i.keyword === 'EXPOSE').flatMap((i) => i.args.split(/\s+/).map(Number));
    expect(exposed.sort()).toEqual([...IMAGES[image].ports].sort());
    const healthcheck = runtime.find((i) => i.keyword === 'HEALTHCHECK')?.args ?? '';
    const [variable, port] = IMAGES[image].healthPort;
    expect(healthcheck).toContain('/healthz');
    expect(healthcheck).toContain(`process.env.${variable} || ${port}`);
  });

  it('listens on every interface in the container', () => {
    const env = runtime
      .filter((i) => i.keyword === 'ENV')
      .map((i) => i.args)
      .join(' ');
    expect(env).toContain(`${IMAGES[image].hostVariable}=0.0.0.0`);
    expect(env).toContain('NODE_ENV=production');
  });
});

describe('apps/console/Dockerfile', () => {
  const all = instructions(readFileSync(path.join(REPO_ROOT, 'apps', 'console', 'Dockerfile'), 'utf8'));

  it('gives the build what tsc and vite build read outside the pruned workspaces', () => {
    const copies = all.filter((i) => i.keyword === 'COPY').map((i) => i.args);
    expect(copies).toContain('tsconfig.base.json ./');
  });
});

describe('.dockerignore', () => {
  it('keeps installed, built, local and secret files out of the build context', () => {
    const lines = readFileSync(path.join(REPO_ROOT, '.dockerignore'), 'utf8').split('\n');
    for (const pattern of ['**/node_modules', '**/dist', '**/.data', '**/.env', '.git', 'deploy/kubernetes/overlays/*/secrets']) {
      expect(lines).toContain(pattern);
    }
  });

  it("lets in what the console's page is built from (web/, vite.config, the bundle-size script)", () => {
    const patterns = readFileSync(path.join(REPO_ROOT, '.dockerignore'), 'utf8')
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line !== '' && !line.startsWith('#'));
    // Every pattern of ours is a path, `**/name` or `prefix/*/name`: none may match these.
    const toRegExp = (pattern: string) => {
      const escaped = pattern.replace(/[.+?^$(){}|[\]\\]/g, '\\$&');
      const body = escaped
        .replace(/\*\*\//g, '\uE000')
        .replace(/\*/g, '[^/]*')
        .replace(/\uE000/g, '(?:.*/)?');
      return new RegExp(`^${body}(?:/|$)`);
    };
    const ignored = (file: string) => patterns.some((pattern) => toRegExp(pattern).test(file));
    for (const file of [
      'apps/console/web/index.html',
      'apps/console/web/src/main.tsx',
      'apps/console/vite.config.mts',
      'apps/console/scripts/bundle-size.mjs',
      'tsconfig.base.json',
    ]) {
      expect([file, ignored(file)]).toEqual([file, false]);
    }
    expect(ignored('apps/console/dist/web/index.html')).toBe(true);
    expect(ignored('apps/console/node_modules/vite/package.json')).toBe(true);
  });
});
