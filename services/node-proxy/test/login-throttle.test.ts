import type { IncomingMessage } from 'node:http';
import { clientAddress, LoginThrottle } from '../src/auth/login-throttle';

describe('throttling wrong credentials', () => {
  it('refuses an address after the failures of a window until it ends, per node, and forgets the oldest past its size', () => {
    let now = 0;
    const throttle = new LoginThrottle({ maxFailures: 3, windowMs: 10_000, maxEntries: 100, now: () => now });
    const attacker = LoginThrottle.key('node-a', '10.0.0.1');
    for (let i = 0; i < 3; i++) {
      expect(throttle.retryAfter(attacker)).toBeUndefined();
      throttle.fail(attacker);
    }
    now = 2_500;
    expect(throttle.retryAfter(attacker)).toBe(8);
    expect(throttle.retryAfter(LoginThrottle.key('node-a', '10.0.0.2'))).toBeUndefined();
    expect(throttle.retryAfter(LoginThrottle.key('node-b', '10.0.0.1'))).toBeUndefined();
    now = 10_000;
    expect(throttle.retryAfter(attacker)).toBeUndefined();
    expect(throttle.size).toBe(0);

    for (let i = 0; i < 1_000; i++) throttle.fail(LoginThrottle.key('node-a', `10.1.${i >> 8}.${i & 255}`));
    expect(throttle.size).toBe(100);
  });

  it('takes the peer address, or behind a trusted ingress the entry it added last', () => {
    const req = (headers: IncomingMessage['headers']) => ({ headers, socket: { remoteAddress: '127.0.0.1' } }) as unknown as IncomingMessage;
    expect(clientAddress(req({ 'x-forwarded-for': '1.2.3.4' }), false)).toBe('127.0.0.1');
    expect(clientAddress(req({ 'x-forwarded-for': '6.6.6.6, 1.2.3.4' }), true)).toBe('1.2.3.4');
    expect(clientAddress(req({}), true)).toBe('127.0.0.1');
  });
});
