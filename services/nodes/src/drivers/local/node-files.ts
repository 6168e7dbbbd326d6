import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { IMAGE_IDS } from '@cloud/chains';
import type { StakingTls } from '../../domain/node-driver';

/** Where one node's files are. */
export interface NodePaths {
  dir: string;
  /** The software's own data: its `-datadir`, or where anvil keeps its state. */
  dataDir: string;
  /** `node.json`, the node's record. */
  record: string;
  log: string;
  /** Where the process writes its stdout and stderr, read (and emptied) by its supervisor into the log. */
  output: string;
  /** A validator's staking TLS certificate and key (avalanchego's --staking-tls-*-file). */
  stakingCertificate: string;
  stakingKey: string;
}

// An id names a directory that `destroy` removes: nothing that could reach outside the root.
const NODE_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;

export function isNodeId(nodeId: string): boolean {
  return NODE_ID.test(nodeId);
}

export function nodePaths(rootDir: string, nodeId: string): NodePaths {
  if (!isNodeId(nodeId)) throw new Error(`not a node id: ${JSON.stringify(nodeId)}`);
  const dir = path.join(path.resolve(rootDir), nodeId);
  return {
    dir,
    dataDir: path.join(dir, 'data'),
    record: path.join(dir, 'node.json'),
    log: path.join(dir, 'node.log'),
    output: path.join(dir, 'node.out'),
    stakingCertificate: path.join(dir, 'staking', 'staker.crt'),
    stakingKey: path.join(dir, 'staking', 'staker.key'),
  };
}

const nodeRecordSchema = z.object({
  image: z.enum(IMAGE_IDS),
  /** Kept so a restart reuses it while it is free. */
  rpcPort: z.number().int().min(1).max(65535),
  /** The running process, so a later instance finds it if this one dies without stopping it. */
  pid: z.number().int().positive().optional(),
  /** `<pid>:<tag>` of the service instance supervising it: a live one is waited for, a dead one's process adopted. */
  supervisor: z.string().max(100).optional(),
});

/** What any instance on this machine needs to know about a node; nothing secret. */
export type NodeRecord = z.infer<typeof nodeRecordSchema>;

/** The node's record; undefined when there is none or it is unreadable. */
export async function readNodeRecord(file: string): Promise<NodeRecord | undefined> {
  try {
    return nodeRecordSchema.parse(JSON.parse(await readFile(file, 'utf8')));
  } catch {
    return undefined;
  }
}

/** Only this user may enter a node's folders: they hold its log, its data and what logs in to it. */
const PRIVATE_DIR = 0o700;

/** Creates the node's folders, and closes ones an earlier version made readable by others. */
export async function prepareNodeDirs(paths: NodePaths): Promise<void> {
  await mkdir(paths.dataDir, { recursive: true, mode: PRIVATE_DIR });
  for (const dir of [paths.dir, paths.dataDir]) await chmod(dir, PRIVATE_DIR);
}

/**
 * Writes a validator's staking certificate and key where its software reads them, readable by
 * this user only. Written at every start, so the files are the staking service's current pair.
 */
export async function writeStakingTls(paths: NodePaths, tls: StakingTls): Promise<void> {
  await mkdir(path.dirname(paths.stakingKey), { recursive: true, mode: PRIVATE_DIR });
  await writeFile(paths.stakingCertificate, tls.certificatePem, { mode: 0o600 });
  await writeFile(paths.stakingKey, tls.keyPem, { mode: 0o600 });
  await chmod(paths.stakingKey, 0o600); // a file that existed keeps its mode through writeFile
}

/** Written beside and renamed over, so a reader never sees half a record. */
export async function writeNodeRecord(file: string, record: NodeRecord): Promise<void> {
  const temporary = `${file}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    await writeFile(temporary, `${JSON.stringify(record)}\n`, { mode: 0o600 });
    await rename(temporary, file);
  } finally {
    await rm(temporary, { force: true });
  }
}
