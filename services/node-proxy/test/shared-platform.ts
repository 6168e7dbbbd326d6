import { startProxyPlatform, type ProxyPlatform } from './harness';

let shared: ProxyPlatform | undefined;

/**
 * One proxy platform (the accounts service, a nodes-service instance, their databases and bus)
 * for every suite of the test file that calls this: started before its first test, closed after
 * its last. Its suites take it with `sharedProxyPlatform()` in their `beforeAll`.
 */
export function shareOneProxyPlatform(): void {
  beforeAll(async () => {
    shared = await startProxyPlatform();
  }, 180_000);
  afterAll(async () => {
    await shared?.close();
    shared = undefined;
  });
}

/** The shared platform as one suite's own scope: its proxies and nodes are closed and deleted by its `close`. */
export function sharedProxyPlatform(): ProxyPlatform {
  if (!shared) throw new Error('no shared platform: the test file must call shareOneProxyPlatform()');
  return shared.scope();
}
