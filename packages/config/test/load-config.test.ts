import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { apiServiceEnvironment, booleanFlag, commonEnvironment, ConfigError, loadConfig, port, readOrCreateSecretFile } from '../src';

const schema = commonEnvironment.extend({ ACCOUNTS_PORT: port(3001), FEATURE: booleanFlag(false) });

describe('loadConfig', () => {
  it('applies defaults when variables are unset or empty', () => {
    const config = loadConfig(schema, { ACCOUNTS_PORT: '', DATA_DIR: '/tmp/x' });
    expect(config).toMatchObject({ ACCOUNTS_PORT: 3001, FEATURE: false, LOG_LEVEL: 'info', DATA_DIR: '/tmp/x' });
    expect(config.DATABASE_URL).toBeUndefined();
  });

  it('coerces and validates values', () => {
    const config = loadConfig(schema, { ACCOUNTS_PORT: '4001', FEATURE: 'yes', DATABASE_URL: 'postgres://u@h:5432/db' });
    expect(config).toMatchObject({ ACCOUNTS_PORT: 4001, FEATURE: true, DATABASE_URL: 'postgres://u@h:5432/db' });
  });

  it('names every bad variable in one error', () => {
    let thrown: unknown;
    try {
      loadConfig(schema, { ACCOUNTS_PORT: '70000', DATABASE_URL: 'mysql://x', LOG_LEVEL: 'loud' });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ConfigError);
    const { problems } = thrown as ConfigError;
    expect(problems.map((p) => p.split(':')[0]).sort()).toEqual(['ACCOUNTS_PORT', 'DATABASE_URL', 'LOG_LEVEL']);
    expect((thrown as Error).message).toContain('DATABASE_URL: must be a postgres:// or postgresql:// URL');
  });

  it('rejects a custom refinement with the variable name', () => {
    const strict = z.object({ SECRET: z.string().min(8, 'must be at least 8 characters') });
    expect(() => loadConfig(strict, { SECRET: 'short' })).toThrow('SECRET: must be at least 8 characters');
  });
});

describe('CORS_ORIGINS', () => {
  it('is a list of exact origins, none by default', () => {
    expect(loadConfig(apiServiceEnvironment, {}).CORS_ORIGINS).toEqual([]);
    expect(loadConfig(apiServiceEnvironment, { CORS_ORIGINS: ' http://127.0.0.1:3000, https://console.example.com ' }).CORS_ORIGINS).toEqual([
      'http://127.0.0.1:3000',
      'https://console.example.com',
    ]);
  });

  it.each(['https://console.example.com/', 'https://Console.example.com', 'console.example.com', 'https://console.example.com/app', 'ftp://x.example'])(
    'refuses %s, which a browser never sends as an Origin',
    (value) => {
      expect(() => loadConfig(apiServiceEnvironment, { CORS_ORIGINS: value })).toThrow(/^[\s\S]*CORS_ORIGINS: .* is not an origin/);
    },
  );
});

describe('readOrCreateSecretFile', () => {
  it('generates once, with owner-only permissions, and reads the same secret afterwards', () => {
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'secret-')), 'keys', 'k.pem');
    const first = readOrCreateSecretFile(file, () => 'generated-1');
    const second = readOrCreateSecretFile(file, () => 'generated-2');
    expect(first.toString()).toBe('generated-1');
    expect(second.toString()).toBe('generated-1');
    expect(readFileSync(file, 'utf8')).toBe('generated-1');
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });
});
