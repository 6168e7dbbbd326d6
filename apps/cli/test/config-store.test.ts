import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ConfigFileError, ConfigStore } from '../src/config-store';

let tmp: string;
beforeEach(() => {
  tmp = mkdtempSync(path.join(os.tmpdir(), 'cloud-config-'));
});
afterEach(() => rmSync(tmp, { recursive: true, force: true }));

const modeOf = (file: string): number => statSync(file).mode & 0o777;

describe('the directory', () => {
  test('is $XDG_CONFIG_HOME/cloud when that is set and absolute', () => {
    const store = new ConfigStore({ HOME: '/home/nobody', XDG_CONFIG_HOME: path.join(tmp, 'xdg') });
    expect(store.dir).toBe(path.join(tmp, 'xdg', 'cloud'));
    expect(store.file).toBe(path.join(tmp, 'xdg', 'cloud', 'config.json'));
  });

  test('is $CLOUD_CONFIG_DIR above everything else', () => {
    const store = new ConfigStore({ HOME: '/home/nobody', XDG_CONFIG_HOME: path.join(tmp, 'xdg'), CLOUD_CONFIG_DIR: path.join(tmp, 'mine') });
    expect(store.dir).toBe(path.join(tmp, 'mine'));
  });

  test('is ~/.config/cloud without either, and when XDG_CONFIG_HOME is relative', () => {
    expect(new ConfigStore({ HOME: tmp }).dir).toBe(path.join(tmp, '.config', 'cloud'));
    expect(new ConfigStore({ HOME: tmp, XDG_CONFIG_HOME: 'relative/xdg' }).dir).toBe(path.join(tmp, '.config', 'cloud'));
    expect(new ConfigStore({}).dir).toBe(path.join(os.homedir(), '.config', 'cloud'));
  });
});

test('a missing file loads as {} and creates nothing', () => {
  const store = new ConfigStore({ HOME: tmp });
  expect(store.load()).toEqual({});
  expect(readdirSync(tmp)).toEqual([]);
});

test('save makes the directory 0700 and the file 0600, and load reads it back', () => {
  const store = new ConfigStore({ HOME: tmp });
  const config = { accountsUrl: 'http://127.0.0.1:3001', session: { accessToken: 'a.b.c' } };
  store.save(config);
  expect(modeOf(store.dir)).toBe(0o700);
  expect(modeOf(store.file)).toBe(0o600);
  expect(store.load()).toEqual(config);
});

test('the file stays 0600 under a permissive umask', () => {
  const previous = process.umask(0);
  try {
    const store = new ConfigStore({ CLOUD_CONFIG_DIR: tmp });
    store.save({});
    expect(modeOf(store.file)).toBe(0o600);
  } finally {
    process.umask(previous);
  }
});

test('a file others can read is made 0600 by load and by save', () => {
  const store = new ConfigStore({ CLOUD_CONFIG_DIR: tmp });
  writeFileSync(store.file, '{"nodesUrl":"http://127.0.0.1:3002"}');
  chmodSync(store.file, 0o644);
  expect(store.load()).toEqual({ nodesUrl: 'http://127.0.0.1:3002' });
  expect(modeOf(store.file)).toBe(0o600);

  chmodSync(store.file, 0o666);
  store.save({ nodesUrl: 'http://127.0.0.1:3002' });
  expect(modeOf(store.file)).toBe(0o600);
});

test('save replaces the file whole and leaves no temporary file behind', () => {
  const store = new ConfigStore({ CLOUD_CONFIG_DIR: tmp });
  store.save({ accountsUrl: 'http://a.example' });
  store.save({ nodesUrl: 'http://n.example' });
  expect(readdirSync(tmp)).toEqual(['config.json']);
  expect(JSON.parse(readFileSync(store.file, 'utf8'))).toEqual({ nodesUrl: 'http://n.example' });
});

test('a failed save keeps the old file and leaves no temporary file', () => {
  const store = new ConfigStore({ CLOUD_CONFIG_DIR: tmp });
  store.save({ accountsUrl: 'http://a.example' });
  // Something in the way of the temporary file: writing fails.
  const inTheWay = `${store.file}.${process.pid}.tmp`;
  mkdirSync(inTheWay);
  expect(() => store.save({ accountsUrl: 'http://b.example' })).toThrow(ConfigFileError);
  expect(store.load()).toEqual({ accountsUrl: 'http://a.example' });
  rmSync(inTheWay, { recursive: true });

  // A non-empty directory where the file goes: the rename fails after the temporary file is written.
  const blocked = new ConfigStore({ CLOUD_CONFIG_DIR: path.join(tmp, 'blocked') });
  mkdirSync(path.join(blocked.file, 'x'), { recursive: true });
  expect(() => blocked.save({})).toThrow(`cannot write ${blocked.file}`);
  expect(readdirSync(blocked.dir)).toEqual(['config.json']);
});

test.each([
  ['not JSON', '{"accountsUrl": ', 'is not valid JSON'],
  ['not an object', '[1, 2]', 'does not hold a JSON object'],
  ['null', 'null', 'does not hold a JSON object'],
])('a file that is %s fails with a ConfigFileError naming the file and the fix', (_case, text, problem) => {
  const store = new ConfigStore({ CLOUD_CONFIG_DIR: tmp });
  writeFileSync(store.file, text, { mode: 0o600 });
  let failure: unknown;
  try {
    store.load();
  } catch (error) {
    failure = error;
  }
  expect(failure).toBeInstanceOf(ConfigFileError);
  expect((failure as Error).message).toContain(store.file);
  expect((failure as Error).message).toContain(problem);
  expect((failure as Error).message).toContain('cloud login');
});

test('update round-trips, whether the change edits in place or returns a new config', () => {
  const store = new ConfigStore({ CLOUD_CONFIG_DIR: tmp });
  const first = store.update((config) => {
    config.nodeCredentials = { 'node-1': { user: 'u', pass: 'p' } };
  });
  expect(first).toEqual({ nodeCredentials: { 'node-1': { user: 'u', pass: 'p' } } });
  const second = store.update((config) => ({ ...config, stakingUrl: 'http://127.0.0.1:3004' }));
  expect(second).toEqual({ nodeCredentials: { 'node-1': { user: 'u', pass: 'p' } }, stakingUrl: 'http://127.0.0.1:3004' });
  expect(new ConfigStore({ CLOUD_CONFIG_DIR: tmp }).load()).toEqual(second);
});
