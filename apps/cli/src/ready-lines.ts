import { readyLines, tokenUrls, type NodeEndpoints, type ReadyCredential, type ReadyLine } from '@cloud/sdk';
import type { Context, NodeCredentials } from './context';

// The lines ready to paste for a node (the SDK's readyLines), printed by `nodes create`, `nodes
// info` and `nodes credentials create|rotate`: `# <client>` over each line, so the block pastes
// into a shell as it is.

/** The credential the lines use: a kept Basic user and password or URL token, or a jwt node's client token. */
export function readyCredential(node: { endpoints: NodeEndpoints; jwt?: boolean }, kept: NodeCredentials | undefined): ReadyCredential | undefined {
  if (node.jwt) return { kind: 'jwt' };
  if (!kept) return undefined;
  return 'token' in kept ? { kind: 'token', urls: tokenUrls(node.endpoints, kept.token) } : { kind: 'basic', user: kept.user, password: kept.password };
}

export function linesFor(ctx: Context, node: { image: string; endpoints: NodeEndpoints }, credential: ReadyCredential): ReadyLine[] {
  return readyLines({ image: node.image, endpoints: node.endpoints, credential, caFile: ctx.settings.proxyCa ?? null });
}

export function printReadyLines(ctx: Context, lines: ReadyLine[]): void {
  if (lines.length === 0) return;
  ctx.output.out.write('\nReady to paste:\n');
  for (const { name, line, note } of lines) ctx.output.out.write(`# ${name}${note ? ` (${note})` : ''}\n${line}\n`);
}
