import { readFileSync } from 'node:fs';
import path from 'node:path';
import { CloudClient, DEFAULT_URLS, type Session } from '@cloud/sdk';
import type { Command } from 'commander';
import { ConfigStore, type StoredConfig } from './config-store';
import { UsageError } from './exit-codes';
import type { Output } from './output';

// What every command gets: where the platform is (flags, then environment, then what `login`
// saved, then the runtime contract's defaults), a client whose session is saved as it changes,
// and the node credentials kept from creation.

export interface CliIo {
  env: NodeJS.ProcessEnv;
  cwd: string;
  stdin: NodeJS.ReadableStream;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

/** The global options, as commander parses them. */
export interface GlobalOptions {
  json?: boolean;
  accountsUrl?: string;
  nodesUrl?: string;
  stakingUrl?: string;
  streamsUrl?: string;
  proxyCa?: string;
}

export interface Settings {
  accountsUrl: string;
  nodesUrl: string;
  stakingUrl: string;
  streamsUrl: string;
  /** Absolute path of the PEM to trust for the node-proxy, if any. */
  proxyCa?: string;
}

/** A node credential kept on this machine: a Basic user and password, or a URL token and its credential id. */
export type NodeCredentials = { user: string; password: string } | { id: string; token: string };

/** How a command module gets the one Context of the run, from the command commander runs. */
export type ContextOf = (command: Command) => Context;

export class Context {
  readonly output: Output;
  readonly store: ConfigStore;
  readonly settings: Settings;
  private client?: CloudClient;

  constructor(
    readonly io: CliIo,
    readonly options: GlobalOptions,
  ) {
    this.output = { json: options.json === true, out: io.stdout, err: io.stderr };
    this.store = new ConfigStore(io.env);
    const saved = this.store.load();
    const { env } = io;
    const proxyCa = options.proxyCa ?? env.CLOUD_PROXY_CA;
    this.settings = {
      accountsUrl: options.accountsUrl ?? env.CLOUD_ACCOUNTS_URL ?? saved.accountsUrl ?? DEFAULT_URLS.accounts,
      nodesUrl: options.nodesUrl ?? env.CLOUD_NODES_URL ?? saved.nodesUrl ?? DEFAULT_URLS.nodes,
      stakingUrl: options.stakingUrl ?? env.CLOUD_STAKING_URL ?? saved.stakingUrl ?? DEFAULT_URLS.staking,
      streamsUrl: options.streamsUrl ?? env.CLOUD_STREAMS_URL ?? saved.streamsUrl ?? DEFAULT_URLS.streams,
      proxyCa: proxyCa ? path.resolve(io.cwd, proxyCa) : saved.proxyCa,
    };
  }

  /** The SDK client; its session is written to the config file whenever it changes. */
  cloud(): CloudClient {
    this.client ??= new CloudClient({
      ...this.settings,
      session: this.store.load().session as Session | undefined,
      onSessionChange: (session) => this.store.update((config) => ({ ...config, session: session as StoredConfig['session'] })),
      proxy: { ca: this.settings.proxyCa ? readCa(this.settings.proxyCa) : undefined },
    });
    return this.client;
  }

  /** Remembers where the platform is (at login), so later commands need no flags. */
  saveSettings(): void {
    this.store.update((config) => ({ ...config, ...this.settings }));
  }

  saveNodeCredentials(nodeId: string, credentials: NodeCredentials): void {
    const saved = 'token' in credentials ? { id: credentials.id, token: credentials.token } : { user: credentials.user, pass: credentials.password };
    this.store.update((config) => ({ ...config, nodeCredentials: { ...config.nodeCredentials, [nodeId]: saved } }));
  }

  nodeCredentials(nodeId: string): NodeCredentials | undefined {
    const saved = this.store.load().nodeCredentials?.[nodeId];
    if (!saved) return undefined;
    return 'token' in saved ? { id: saved.id, token: saved.token } : { user: saved.user, password: saved.pass };
  }

  forgetNodeCredentials(nodeId: string): void {
    this.store.update((config) => {
      const { [nodeId]: _forgotten, ...rest } = config.nodeCredentials ?? {};
      return { ...config, nodeCredentials: rest };
    });
  }
}

function readCa(file: string): Buffer {
  try {
    return readFileSync(file);
  } catch (error) {
    throw new UsageError(`cannot read the proxy CA certificate ${file}: ${(error as Error).message}`);
  }
}
