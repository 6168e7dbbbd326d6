import { randomBytes } from 'node:crypto';
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { IMAGE_IDS } from '@cloud/chains';

/** Where one node's files are. */
export interface NodePaths {
  dir: string;
  /** The software's own data: its `-datadir`, or where anvil keeps its state. */
  dataDir: string;
  /** `node.json`, the node's record. */
  record: string;
  log: string;
}

// An id names a directory that `destroy` removes: nothing that could reach outside the root.
const NODE_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;

export function isNodeId(nodeId: string): boolean {
  return NODE_ID.test(nodeId);
}

export function nodePaths(rootDir: string, nodeId: string): NodePaths {
  if (!isNodeId(nodeId)) throw new Error(`not a node id: ${JSON.stringify(nodeId)}`);
  const dir = path.join(path.resolve(rootDir), nodeId);
  return { dir, dataDir: path.join(dir, 'data'), record: path.join(dir, 'node.json'), log: path.join(dir, 'node.log') };
}

const nodeRecordSchema = z.object({
  image: z.enum(IMAGE_IDS),
  /** Kept so a restart reuses it while it is free. */
  rpcPort: z.number().int().min(1).max(65535),
  /** The running process, so a later instance finds it if this one dies without stopping it. */
  pid: z.number().int().positive().optional(),
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

/** Written beside and renamed over, so a reader never sees half a record. */
export async function writeNodeRecord(file: string, record: NodeRecord): Promise<void> {
  const temporary = `${file}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    await writeFile(temporary, `${JSON.stringify(record)}\n`);
    await rename(temporary, file);
  } finally {
    await rm(temporary, { force: true });
  }
}
