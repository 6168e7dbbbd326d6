import { readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { base64Utf8, basicAuthorization, fromBase64Url } from '../src/encoding';
import * as browser from '../src/browser';

// The web console bundles `@cloud/sdk/browser`: nothing it reaches may need Node.

/** Every module `entry` reaches through relative imports, and the non-relative ones it names. */
function importGraph(entry: string): { files: string[]; external: string[] } {
  const files = new Set<string>();
  const external = new Set<string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    const source = readFileSync(file, 'utf8');
    for (const [, specifier] of source.matchAll(/(?:import|export)\s[^'"]*?from\s+'([^']+)'/g)) {
      if (specifier!.startsWith('.')) visit(path.resolve(path.dirname(file), `${specifier}.ts`));
      else external.add(specifier!);
    }
  };
  visit(entry);
  return { files: [...files], external: [...external] };
}

describe('@cloud/sdk/browser', () => {
  it('reaches no Node built-in module', () => {
    const { files, external } = importGraph(path.join(__dirname, '../src/browser.ts'));
    expect(files.map((file) => path.basename(file))).toEqual(expect.arrayContaining(['platform-client.ts', 'accounts.ts', 'nodes.ts', 'staking.ts']));
    const builtins = external.filter((name) => name.startsWith('node:') || builtinModules.includes(name));
    expect(builtins).toEqual([]);
    expect(files.map((file) => path.basename(file))).not.toContain('node-rpc.ts');
  });

  it('exports the client of the three APIs and the typed errors', () => {
    const client = new browser.PlatformClient({ accountsUrl: 'http://127.0.0.1:1' });
    expect(client.accounts).toBeDefined();
    expect(client.nodes).toBeDefined();
    expect(client.staking).toBeDefined();
    expect(client.currentSession()).toBeUndefined();
    expect(() => client.accountToken()).toThrow(browser.NotLoggedInError);
  });
});

describe('base64 without Buffer', () => {
  it.each(['ada:Secret-pass-123', 'üser:pässwörd', ''])('encodes %p as Buffer does', (text) => {
    expect(base64Utf8(text)).toBe(Buffer.from(text, 'utf8').toString('base64'));
    expect(basicAuthorization('ü', 'p:w')).toBe(`Basic ${Buffer.from('ü:p:w').toString('base64')}`);
  });

  it('decodes base64url as Buffer does, and refuses what is not base64', () => {
    const text = JSON.stringify({ sub: 'user-1', exp: 1_800_000_000, name: 'Zoë ✓' });
    expect(fromBase64Url(Buffer.from(text).toString('base64url'))).toBe(text);
    expect(() => fromBase64Url('not base64!')).toThrow();
  });
});

describe('the fetch the SDK is given', () => {
  // A browser's fetch throws "Illegal invocation" when called as a method of another object.
  function windowLikeFetch(this: unknown, _input: unknown, _init?: unknown): Promise<Response> {
    if (this !== undefined && this !== globalThis) return Promise.reject(new TypeError('Illegal invocation'));
    return Promise.resolve(new Response(JSON.stringify([{ image: 'eth' }]), { status: 200, headers: { 'content-type': 'application/json' } }));
  }

  it('is called as a plain function, as a browser requires', async () => {
    const client = new browser.PlatformClient({ nodesUrl: 'http://127.0.0.1:1', fetch: windowLikeFetch as typeof fetch });
    await expect(client.nodes.chains()).resolves.toEqual([{ image: 'eth' }]);
  });
});
