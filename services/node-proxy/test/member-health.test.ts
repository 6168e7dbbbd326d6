import { MemberHealth } from '../src/pools/member-health';

// The pools' circuit breaker on its own, with a clock the test moves.
describe("a pool member's circuit breaker", () => {
  let now = 1_000;
  const health = () => new MemberHealth({ failuresToBench: 3, benchMs: 5_000, now: () => now });

  it('benches a member after 3 failures in a row, and a call it answers in between ends the streak', () => {
    const breaker = health();
    breaker.failed('node-a');
    breaker.failed('node-a');
    breaker.served('node-a');
    breaker.failed('node-a');
    breaker.failed('node-a');
    expect(breaker.isBenched('node-a')).toBe(false);
    breaker.headRead('node-a', false); // a failed head read is a failure too
    expect(breaker.isBenched('node-a')).toBe(true);
    expect(breaker.benchedCount).toBe(1);
    expect(breaker.isBenched('node-b')).toBe(false);
  });

  it('brings a benched member back only with a good head read once the bench time is over; a good head read does not end a streak', () => {
    const breaker = health();
    breaker.failed('node-a');
    breaker.failed('node-a');
    breaker.headRead('node-a', true);
    breaker.failed('node-a');
    expect(breaker.isBenched('node-a')).toBe(true);
    now += 4_999;
    breaker.headRead('node-a', true);
    breaker.served('node-a'); // a call answered meanwhile (one in flight when it was benched) brings nothing back
    expect(breaker.isBenched('node-a')).toBe(true);
    now += 1;
    breaker.headRead('node-a', false);
    expect(breaker.isBenched('node-a')).toBe(true);
    breaker.headRead('node-a', true);
    expect(breaker.isBenched('node-a')).toBe(false);
    expect(breaker.benchedCount).toBe(0);
    // Back with a clean record: benched again only after 3 more failures.
    breaker.failed('node-a');
    breaker.failed('node-a');
    expect(breaker.isBenched('node-a')).toBe(false);
  });

  it('forgets a member that is gone, benched or not', () => {
    const breaker = health();
    for (let n = 0; n < 3; n += 1) breaker.failed('node-a');
    breaker.forget('node-a');
    expect([breaker.isBenched('node-a'), breaker.benchedCount]).toEqual([false, 0]);
  });
});
