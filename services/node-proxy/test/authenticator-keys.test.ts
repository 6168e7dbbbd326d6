import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { generateSigningKeyPem, loadSigningKey, remoteJwks, systemClock, TokenSigner, TokenVerifier } from '@cloud/auth';
import { Authenticator } from '../src/auth/authenticator';
import type { Route } from '../src/routing/route-table';

// Issue 29, item 5: while the accounts service's keys cannot be read, a client token is neither
// refused (401, counted as a failed login) nor admitted: the call is answered 503.
describe('a client token while the signing keys cannot be read', () => {
  it('is answered 503 KeysUnavailable, not a failed check', async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise((resolve) => probe.close(resolve));
    const verifier = new TokenVerifier(remoteJwks(`http://127.0.0.1:${port}/.well-known/jwks.json`));
    const auth = new Authenticator({ verifier, isRevoked: () => Promise.resolve(false) }, systemClock);
    const route = { nodeId: 'node-1', userId: 'user-1', jwt: true, basicCredentials: [], urlTokens: new Map() } as unknown as Route;
    const { token } = new TokenSigner(loadSigningKey(generateSigningKeyPem())).sign('client', { sub: 'user-1', ver: 1 });

    await expect(auth.check(route, `Bearer ${token}`)).rejects.toMatchObject({ status: 503, code: 'KeysUnavailable', headers: { 'Retry-After': '1' } });
    expect(auth.isKnown(route, `Bearer ${token}`)).toBe(false);
  });
});
