// What a stream's receiver must have got after the faults: every event once at least, in order,
// none missing (repeats allowed: delivery is at least once, de-duplicated on the stable id).
import type { ReceivedDelivery } from './webhook-receiver';

export interface StreamAudit {
  /** Events taken, repeats included. */
  received: number;
  /** Distinct event ids. */
  distinct: number;
  repeats: number;
  firstHeight?: number;
  lastHeight?: number;
  problems: string[];
}

/**
 * Checks the deliveries of one `blocks` stream in arrival order: each signature; every new id
 * arriving with the next seq (nothing skipped, nothing out of order; a repeat carries the seq it
 * had); the blocks, by seq, one per height from the first to the last; and no `reorg` (the
 * experiment's dev chain has none).
 */
export function auditBlockStream(deliveries: readonly ReceivedDelivery[]): StreamAudit {
  const problems: string[] = [];
  const unsigned = deliveries.filter((delivery) => !delivery.signatureValid()).length;
  if (unsigned > 0) problems.push(`${unsigned} of ${deliveries.length} deliveries with a signature that does not check out`);
  const seqOf = new Map<string, number>();
  // Heights of the new blocks in arrival order: the seq order, when the check above finds none out of order.
  const heights: number[] = [];
  let received = 0;
  let lastSeq = 0;
  for (const event of deliveries.flatMap((delivery) => delivery.events)) {
    received += 1;
    const known = seqOf.get(event.id);
    if (known !== undefined) {
      if (known !== event.seq) problems.push(`event ${event.id} came again with seq ${event.seq}, first with ${known}`);
      continue;
    }
    if (event.seq !== lastSeq + 1)
      problems.push(`event ${event.id} (seq ${event.seq}) arrived new after seq ${lastSeq}: ${event.seq > lastSeq ? 'events missing' : 'out of order'}`);
    seqOf.set(event.id, event.seq);
    lastSeq = Math.max(lastSeq, event.seq);
    if (event.type === 'block' && event.height !== undefined) heights.push(event.height);
    else problems.push(`an unexpected ${event.type} event (seq ${event.seq})`);
  }
  for (let i = 1; i < heights.length; i += 1) {
    if (heights[i] !== heights[i - 1]! + 1) problems.push(`block ${heights[i]} follows block ${heights[i - 1]}`);
  }
  return {
    received,
    distinct: seqOf.size,
    repeats: received - seqOf.size,
    ...(heights.length > 0 ? { firstHeight: heights[0], lastHeight: heights[heights.length - 1] } : {}),
    problems: problems.slice(0, 20),
  };
}
