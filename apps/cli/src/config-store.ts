/**
 * Where the CLI keeps its settings, the SDK's session and node credentials: one JSON file in a
 * directory of its own. It holds tokens and passwords, so the directory is made 0700 and the file
 * is always 0600, and it is replaced atomically (write a temporary file, then rename) so a
 * crash or a second `cloud` running at the same time never leaves half a file.
 */
import { chmodSync, closeSync, fchmodSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface StoredConfig {
  accountsUrl?: string;
  nodesUrl?: string;
  stakingUrl?: string;
  streamsUrl?: string;
  /** path of a PEM file of CA certificates to trust for the node-proxy (a dev proxy's self-signed certificate) */
  proxyCa?: string;
  /** the SDK's session (JSON-safe object; opaque here) */
  session?: Record<string, unknown>;
  /**
   * The credential `cloud rpc` calls each node or validator with, by node id: a Basic user and
   * password, or a URL token (with its credential id), as created or rotated from this machine
   */
  nodeCredentials?: Record<string, { user: string; pass: string } | { id: string; token: string }>;
}

/** The config file cannot be read or written, or does not hold a JSON object. */
export class ConfigFileError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ConfigFileError';
  }
}

const OWNER_ONLY_FILE = 0o600;
const OWNER_ONLY_DIR = 0o700;
const FIX = 'fix or delete it, then run "cloud login" again';

export class ConfigStore {
  readonly dir: string;
  readonly file: string;

  /** The directory: $CLOUD_CONFIG_DIR, else $XDG_CONFIG_HOME/cloud (if absolute, as the XDG spec
   * asks), else ~/.config/cloud. */
  constructor(env: NodeJS.ProcessEnv = process.env) {
    const xdg = env.XDG_CONFIG_HOME;
    if (env.CLOUD_CONFIG_DIR) this.dir = path.resolve(env.CLOUD_CONFIG_DIR);
    else if (xdg && path.isAbsolute(xdg)) this.dir = path.join(xdg, 'cloud');
    else this.dir = path.join(env.HOME || os.homedir(), '.config', 'cloud');
    this.file = path.join(this.dir, 'config.json');
  }

  /** The stored config; `{}` when there is no file yet. A file others can read is made 0600. */
  load(): StoredConfig {
    let text: string;
    try {
      if ((statSync(this.file).mode & 0o077) !== 0) chmodSync(this.file, OWNER_ONLY_FILE);
      text = readFileSync(this.file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
      throw new ConfigFileError(`cannot read ${this.file}: ${(error as Error).message}; ${FIX}`, { cause: error });
    }
    let config: unknown;
    try {
      config = JSON.parse(text);
    } catch (error) {
      throw new ConfigFileError(`${this.file} is not valid JSON (${(error as Error).message}); ${FIX}`, { cause: error });
    }
    if (typeof config !== 'object' || config === null || Array.isArray(config)) {
      throw new ConfigFileError(`${this.file} does not hold a JSON object; ${FIX}`);
    }
    return config as StoredConfig;
  }

  save(config: StoredConfig): void {
    const temporary = `${this.file}.${process.pid}.tmp`;
    let temporaryExists = false;
    try {
      mkdirSync(this.dir, { recursive: true, mode: OWNER_ONLY_DIR });
      const fd = openSync(temporary, 'w', OWNER_ONLY_FILE);
      temporaryExists = true;
      try {
        // The mode of open() applies to new files only, and the umask may take bits away.
        fchmodSync(fd, OWNER_ONLY_FILE);
        writeSync(fd, `${JSON.stringify(config, null, 2)}\n`);
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
      renameSync(temporary, this.file);
    } catch (error) {
      if (temporaryExists) rmSync(temporary, { force: true });
      throw new ConfigFileError(`cannot write ${this.file}: ${(error as Error).message}`, { cause: error });
    }
  }

  /** Loads, applies `change` (which may edit in place or return a new config), saves, returns it. */
  update(change: (config: StoredConfig) => StoredConfig | void): StoredConfig {
    const current = this.load();
    const next = change(current) ?? current;
    this.save(next);
    return next;
  }
}
