import { createHmac, timingSafeEqual } from 'node:crypto';

// `x-cloud-signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>`, as Stripe signs
// its webhooks: the time inside the signed text lets receivers refuse replays of old deliveries.

const hmac = (secret: string, t: number, body: string) => createHmac('sha256', secret).update(`${t}.${body}`).digest();

export function signatureHeader(secret: string, body: string, at: Date): string {
  const t = Math.floor(at.getTime() / 1000);
  return `t=${t},v1=${hmac(secret, t, body).toString('hex')}`;
}

/** Whether the header signs `body` with `secret` at a time at most `toleranceSeconds` from `now`. */
export function verifySignature(header: string, body: string, secret: string, now: Date, toleranceSeconds = 300): boolean {
  const parts = new Map(header.split(',').map((part) => part.trim().split('=', 2) as [string, string]));
  const t = Number(parts.get('t'));
  if (!Number.isInteger(t) || Math.abs(now.getTime() / 1000 - t) > toleranceSeconds) return false;
  const given = Buffer.from(parts.get('v1') ?? '', 'hex');
  const expected = hmac(secret, t, body);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
