import {
  CALL_EVENTS_PER_MESSAGE,
  CREDENTIALS_COUNTED_PER_NODE,
  callEventsOf,
  decodeMessage,
  encodeMessage,
  MalformedMessageError,
  message,
  packCallEvents,
} from '../src';
import { patternMatches } from '../src/messages';
import { callRecorded } from './helpers';

function decodeError(body: string): MalformedMessageError {
  try {
    decodeMessage(body);
  } catch (error) {
    if (error instanceof MalformedMessageError) return error;
    throw error;
  }
  throw new Error(`decoded without error: ${body}`);
}

describe('decodeMessage', () => {
  it('decodes what encodeMessage wrote, payload and envelope unchanged', () => {
    const sent = callRecorded(3);
    expect(decodeMessage(encodeMessage(sent))).toEqual(sent);
    const revocation = message('revocation.credentials-changed', { userId: 'user-1', credentialsVersion: 4 });
    expect(decodeMessage(encodeMessage(revocation))).toEqual(revocation);
  });

  it('drops payload fields its schema does not know', () => {
    const sent = message('revocation.user-deleted', { userId: 'user-1' });
    const body = JSON.stringify({ ...sent, payload: { ...sent.payload, password: 'hunter2' }, extra: 1 });
    expect(decodeMessage(body)).toEqual(sent);
  });

  it('rejects a body that is not JSON', () => {
    const error = decodeError('{"id": "msg-1", ');
    expect(error.message).toBe('the body is not JSON');
  });

  it('rejects a bad envelope, naming the field', () => {
    const sent = callRecorded();
    for (const [field, value] of [
      ['id', ''],
      ['kind', 7],
      ['occurredAt', 'yesterday'],
    ] as const) {
      const error = decodeError(JSON.stringify({ ...sent, [field]: value }));
      expect(error.message).toMatch(/^bad envelope: /);
      expect(error.message).toContain(`at ${field}`);
    }
    expect(decodeError('[]').message).toMatch(/^bad envelope: /);
    expect(decodeError('null').message).toMatch(/^bad envelope: /);
  });

  it('rejects an unknown kind, including names inherited by every object', () => {
    const sent = callRecorded();
    expect(decodeError(JSON.stringify({ ...sent, kind: 'call.deleted' })).message).toBe('unknown message kind call.deleted');
    expect(decodeError(JSON.stringify({ ...sent, kind: 'toString' })).message).toBe('unknown message kind toString');
    expect(decodeError(JSON.stringify({ ...sent, kind: '__proto__' })).message).toBe('unknown message kind __proto__');
  });

  it('rejects a payload that breaks its kind’s schema, naming the field', () => {
    const sent = callRecorded();
    const badId = decodeError(JSON.stringify({ ...sent, payload: { ...sent.payload, id: 'not-an-event-id' } }));
    expect(badId.message).toMatch(/^bad call\.recorded payload: /);
    expect(badId.message).toContain('at id');
    const badStatus = decodeError(JSON.stringify({ ...sent, payload: { ...sent.payload, output: { ...sent.payload.output, httpStatusCode: 99 } } }));
    expect(badStatus.message).toMatch(/^bad call\.recorded payload: /);
    expect(badStatus.message).toContain('at output.httpStatusCode');
    const missing = decodeError(JSON.stringify({ ...message('revocation.user-deleted', { userId: 'user-1' }), payload: {} }));
    expect(missing.message).toMatch(/^bad revocation\.user-deleted payload: /);
    expect(missing.message).toContain('at userId');
  });
});

describe('patternMatches (AMQP topic semantics)', () => {
  it.each([
    ['revocation.*', 'revocation.user-deleted', true],
    ['revocation.*', 'revocation.client-key-deleted', true],
    ['revocation.*', 'revocation', false],
    ['revocation.*', 'revocation.user.deleted', false],
    ['revocation.*', 'call.recorded', false],
    ['#', 'call.recorded', true],
    ['#', 'revocation.user-deleted', true],
    ['#', 'node', true],
    ['call.recorded', 'call.recorded', true],
    ['call.recorded', 'call.recorded.late', false],
    ['call.recorded', 'call', false],
    ['call.recorded', 'node.created', false],
    ['a.#.z', 'a.z', true],
    ['a.#.z', 'a.b.z', true],
    ['a.#.z', 'a.b.c.d.z', true],
    ['a.#.z', 'a.b.c', false],
    ['a.#.z', 'b.a.z', false],
    ['a.#.z', 'a.z.b', false],
  ])('%s matches %s: %s', (pattern, kind, expected) => {
    expect(patternMatches(pattern, kind)).toBe(expected);
  });
});

describe('packCallEvents', () => {
  const revocation = message('revocation.user-deleted', { userId: 'user-9' });

  it('packs runs of call events into batch messages of at most CALL_EVENTS_PER_MESSAGE, keeping other messages and the order', () => {
    const run = Array.from({ length: CALL_EVENTS_PER_MESSAGE + 1 }, (_, index) => callRecorded(index));
    const lone = callRecorded(999);
    const packed = packCallEvents([...run, revocation, lone]);
    expect(packed.map((each) => each.kind)).toEqual(['call.recorded-batch', 'call.recorded', 'revocation.user-deleted', 'call.recorded']);
    expect(packed.flatMap((each) => callEventsOf(decodeMessage(encodeMessage(each))))).toEqual([...run, lone].map((each) => each.payload));
    expect(packed[1]).toBe(run[CALL_EVENTS_PER_MESSAGE]);
    expect(packed[2]).toBe(revocation);
  });

  it('leaves nothing to pack alone', () => {
    expect(packCallEvents([])).toEqual([]);
    expect(packCallEvents([revocation])).toEqual([revocation]);
    expect(callEventsOf(revocation)).toEqual([]);
  });
});

describe('node.usage', () => {
  const node = { nodeId: 'node-1', userId: 'user-1', requests: 2, blocked: 1, bytesIn: 10, bytesOut: 20 };
  const envelope = (nodes: unknown[]) =>
    JSON.stringify({
      id: 'msg-1',
      kind: 'node.usage',
      occurredAt: '2026-11-25T10:01:00.000Z',
      payload: { proxyId: 'proxy-1', from: '2026-11-25T10:00:00.000Z', to: '2026-11-25T10:01:00.000Z', nodes },
    });

  it('takes a message from a proxy that counts no methods, credentials, cached calls or pool members yet, as none', () => {
    const decoded = decodeMessage(envelope([node]));
    expect(decoded.kind === 'node.usage' && decoded.payload.nodes).toEqual([{ ...node, calls: [], credentials: [], cachedCalls: 0, members: [] }]);
  });

  it('takes calls per credential and outcome, within the bound', () => {
    const credentials = [{ credentialId: 'cred-1', outcome: 'ok', calls: 2 }];
    const decoded = decodeMessage(envelope([{ ...node, credentials }]));
    expect(decoded.kind === 'node.usage' && decoded.payload.nodes[0]!.credentials).toEqual(credentials);
    const tooMany = Array.from({ length: CREDENTIALS_COUNTED_PER_NODE * 5 + 1 }, (_, index) => ({ credentialId: `cred-${index}`, outcome: 'ok', calls: 1 }));
    expect(() => decodeMessage(envelope([{ ...node, credentials: tooMany }]))).toThrow(MalformedMessageError);
  });

  it('takes calls per method and outcome, and refuses an unknown outcome or a count of zero', () => {
    const calls = [{ method: 'getblockcount', outcome: 'node_error', calls: 3 }];
    const decoded = decodeMessage(envelope([{ ...node, calls }]));
    expect(decoded.kind === 'node.usage' && decoded.payload.nodes[0]!.calls).toEqual(calls);
    expect(() => decodeMessage(envelope([{ ...node, calls: [{ method: 'x', outcome: 'lost', calls: 1 }] }]))).toThrow(MalformedMessageError);
    expect(() => decodeMessage(envelope([{ ...node, calls: [{ method: 'x', outcome: 'ok', calls: 0 }] }]))).toThrow(MalformedMessageError);
  });
});
