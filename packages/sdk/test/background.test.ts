import { BACKGROUND_HEADER, PlatformClient } from '../src';
import { ApiClient, type ApiRequest } from '../src/http';

// A client's own background reads (a page's refresh, a wait's polling) carry x-cloud-background: 1,
// so the platform's events list can leave them out and show what the person did.

function recordingFetch() {
  const sent: Array<{ method: string; url: string; background: string | undefined }> = [];
  const fetch = (async (input: string | URL | Request, init?: RequestInit) => {
    const headers = (init?.headers ?? {}) as Record<string, string>;
    sent.push({ method: init?.method ?? 'GET', url: input instanceof Request ? input.url : String(input), background: headers[BACKGROUND_HEADER] });
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (url.pathname === '/auth/token') return Response.json({ accessToken: 'a.b.c', refreshToken: 'r.r.r' });
    if (url.pathname.startsWith('/users/me/nodes/')) return Response.json({ id: 'n-1', state: 'running', stateReason: null });
    return Response.json({});
  }) as typeof globalThis.fetch;
  return { sent, fetch };
}

describe('background reads', () => {
  it('marks the requests the client says are background, and no others', async () => {
    const { sent, fetch } = recordingFetch();
    const api = new ApiClient('nodes', 'http://nodes.test', { fetch, background: (request: ApiRequest) => request.method === 'GET' });
    await api.request({ method: 'GET', path: '/users/me/nodes' });
    await api.request({ method: 'POST', path: '/users/me/nodes', body: { image: 'ltc' } });
    await api.request({ method: 'POST', path: '/x', background: true });
    expect(sent.map((each) => [each.method, each.background])).toEqual([
      ['GET', '1'],
      ['POST', undefined],
      ['POST', '1'],
    ]);
  });

  it("marks a wait's polling, but not the same read asked for directly", async () => {
    const { sent, fetch } = recordingFetch();
    const client = new PlatformClient({ fetch, accountsUrl: 'http://accounts.test', nodesUrl: 'http://nodes.test' });
    await client.useClientKey('c'.repeat(40), 's'.repeat(80));
    await client.nodes.waitUntilRunning('n-1', { intervalMs: 1 });
    await client.nodes.get('n-1');
    const reads = sent.filter((each) => each.url.endsWith('/users/me/nodes/n-1'));
    expect(reads.map((each) => each.background)).toEqual(['1', undefined]);
  });
});
