// Issue 29, item 7: a Litecoin Core node's own moments of unavailability (its RPC work queue
// full) must reach callers as 503 + Retry-After with a JSON-RPC error, never as its raw page or
// another 5xx. A load user also owns an ltc node run by the real litecoind with one RPC thread and
// a work queue of one; slow calls straight to the node keep it busy while the user calls it
// through the proxy.
import { chmodSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { call, expectJson, type Answer } from '../http';
import { seconds, underLoad, type Context, type ExperimentResult } from '../experiments';
import { internalLogin, nodeRecord } from '../node-internal';
import { findOnPath, waitFor } from '../shell';

const BUSY_SECONDS = 6;

/** A caller's answer is acceptable when it is a result, or 503 + Retry-After with a JSON-RPC error; anything else says what it was. */
function unacceptable(answer: Answer): string | undefined {
  if (answer.status === 200 && /"result"\s*:/.test(answer.body)) return undefined;
  let body: { error?: { code?: unknown; message?: unknown } | null; id?: unknown } | undefined;
  try {
    body = JSON.parse(answer.body) as typeof body;
  } catch {
    // not JSON
  }
  const jsonRpcError = body?.error && typeof body.error.code === 'number' && typeof body.error.message === 'string' && 'id' in body;
  if (answer.status === 503 && answer.headers['retry-after'] !== undefined && jsonRpcError) return undefined;
  return `${answer.status || answer.error} ${answer.body.slice(0, 80)}`;
}

export async function nodeBusy(ctx: Context): Promise<ExperimentResult> {
  const { platform } = ctx;
  const litecoind = findOnPath('litecoind');
  if (!litecoind) throw new Error('node-busy needs litecoind on PATH (Debian package litecoind)');
  // The nodes service runs ltc nodes on the real daemon from now on (the pool experiments make theirs on the plain daemon).
  const wrapper = path.join(platform.dataDir, 'litecoind-small-queue');
  writeFileSync(wrapper, `#!/bin/sh\nexec ${litecoind} -rpcthreads=1 -rpcworkqueue=1 "$@"\n`);
  chmodSync(wrapper, 0o755);
  const nodes = platform.services.nodes;
  await nodes.stop('SIGTERM');
  nodes.start({ LITECOIND_PATH: wrapper });
  await nodes.listening();
  await waitFor('the nodes service to be ready', () => nodes.ready(), 30_000);
  const user = ctx.users[0]!;
  const node = await expectJson<{ id: string; address: string; nodeUser: string; nodePass: string }>(
    'ltc node',
    call('POST', `${platform.nodesUrl}/users/me/nodes`, { headers: { authorization: `Bearer ${user.clientToken}` }, body: { image: 'ltc' } }),
  );
  const auth = `Basic ${Buffer.from(`${node.nodeUser}:${node.nodePass}`).toString('base64')}`;
  const viaProxy = (id: string) =>
    call('POST', platform.proxyLtcUrl, {
      headers: { host: node.address, authorization: auth },
      // Not getblockcount: the proxy answers that from the head it tracks (its cache), without the node.
      body: { jsonrpc: '1.0', id, method: 'getblockchaininfo', params: [] },
      timeoutMs: 15_000,
    });
  await waitFor('the ltc node to answer through the proxy', async () => (await viaProxy('ready')).status === 200, 60_000, 250);
  // Straight to the node, logged in as the proxy is.
  const nodeAuth = internalLogin(platform, node.id);
  const { rpcPort } = nodeRecord(platform, node.id)!;
  const hold = () =>
    call('POST', `http://127.0.0.1:${rpcPort}/`, {
      headers: { authorization: nodeAuth },
      body: { jsonrpc: '1.0', id: 'hold', method: 'waitforblockheight', params: [1_000_000, 500] },
      timeoutMs: 10_000,
    });

  return underLoad(
    ctx,
    'node-busy',
    `an ltc node (litecoind, one RPC thread, work queue of one) kept busy ${BUSY_SECONDS} s while its owner calls it`,
    async () => {
      const answers: Answer[] = [];
      const from = Date.now();
      for (let round = 0; Date.now() - from < BUSY_SECONDS * 1000; round += 1) {
        // Two slow calls take the thread and the queue place; the owner's calls find the node busy.
        const holds = [hold(), hold()];
        answers.push(...(await Promise.all(Array.from({ length: 6 }, (_, n) => viaProxy(`busy-${round}-${n}`)))));
        await Promise.all(holds);
      }
      const endedAt = Date.now();
      return {
        endedAt,
        check() {
          const failures: string[] = [];
          const bad = answers.map(unacceptable).filter((kind): kind is string => kind !== undefined);
          const busy = answers.filter((a) => a.status === 503).length;
          const notes = [
            `${answers.length} calls to the busy ltc node in ${seconds(endedAt - from)}: ${answers.filter((a) => a.status === 200).length} results, ${busy} × 503`,
          ];
          if (bad.length > 0)
            failures.push(
              `${bad.length} of ${answers.length} answers of the busy node were neither a result nor 503 + Retry-After with a JSON-RPC error; the first: ${bad[0]}`,
            );
          if (busy === 0 && bad.length === 0) failures.push('the node was never busy: the experiment reproduced nothing');
          return { failures, notes };
        },
      };
    },
  );
}
