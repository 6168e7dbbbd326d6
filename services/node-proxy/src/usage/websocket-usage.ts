import { idKey, type Call, type Checked } from '../json-rpc/json-rpc';
import { parseJson } from '../json-rpc/json-text';
import type { UsageKey, UsageMeter } from './usage-meter';

type Forwarded = Checked & { outcome: 'forward' };

/** Calls of one socket waiting for the node's answer; past this many, calls count as `ok` when forwarded. */
const MOST_WAITING = 1024;

/**
 * A compact single answer as geth, anvil and coreth write it: `{"jsonrpc":"2.0","id":<id>,"result"`
 * or `…,"error":{`. Read without parsing what follows (a full block can be megabytes); any other
 * form is parsed.
 */
const COMPACT_ANSWER = /^\{"jsonrpc":"2\.0","id":(-?(?:0|[1-9]\d{0,14})|"[^"\\]{0,64}"|null),"(result|error)":(\{)?/;

/**
 * Counts a WebSocket session's forwarded calls by what the node answers: a node's answers come
 * back on the socket, in any order and between subscription notifications, so a call is matched
 * to its answer by id (as `ok`, or `node_error` for an error answer). A notification (no id) gets
 * no answer and counts as `ok` when forwarded; calls never answered before the socket closes
 * count as `ok` too: they reached the node.
 */
export class WebSocketCallUsage {
  /** Methods waiting for an answer, by id key (a caller may reuse an id while the first waits). */
  private readonly waiting = new Map<string, string[]>();
  private waitingCount = 0;

  constructor(
    private readonly usage: UsageMeter,
    private readonly caller: UsageKey,
  ) {}

  /** The calls of a message as they go to the node. */
  forwarded(checked: Forwarded): void {
    if (!checked.batch) return this.expect(checked.call, checked.method);
    checked.forwarded.forEach((call, index) => this.expect(call, checked.methods[index]!));
  }

  /** A message from the node: the answers it holds are counted; notifications and unknown ids are not calls. */
  answered(text: string): void {
    if (this.waitingCount === 0) return; // nothing to answer: a subscription notification
    const compact = COMPACT_ANSWER.exec(text);
    if (compact) {
      const [, id, key, opensObject] = compact;
      return this.settle(idKey(id!.startsWith('"') || id === 'null' ? JSON.parse(id!) : Number(id)), key === 'error' && opensObject !== undefined);
    }
    let value: unknown;
    try {
      value = parseJson(text).value;
    } catch {
      return; // not JSON: nothing to match (the caller gets it as it is)
    }
    for (const answer of Array.isArray(value) ? value : [value]) {
      if (typeof answer !== 'object' || answer === null || !('id' in answer)) continue;
      const error = 'error' in answer && typeof answer.error === 'object' && answer.error !== null;
      this.settle(idKey(answer.id), error);
    }
  }

  /** The socket closed: what is still waiting was forwarded and counts as `ok`. */
  closed(): void {
    for (const methods of this.waiting.values()) for (const method of methods) this.usage.count(this.caller, method, 'ok');
    this.waiting.clear();
    this.waitingCount = 0;
  }

  private expect(call: Call, method: string): void {
    if (!Object.hasOwn(call, 'id') || this.waitingCount >= MOST_WAITING) return this.usage.count(this.caller, method, 'ok');
    const key = idKey(call.id);
    const methods = this.waiting.get(key);
    if (methods) methods.push(method);
    else this.waiting.set(key, [method]);
    this.waitingCount += 1;
  }

  private settle(key: string, error: boolean): void {
    const methods = this.waiting.get(key);
    const method = methods?.shift();
    if (method === undefined) return;
    if (methods!.length === 0) this.waiting.delete(key);
    this.waitingCount -= 1;
    this.usage.count(this.caller, method, error ? 'node_error' : 'ok');
  }
}
