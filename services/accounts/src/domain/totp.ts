import { Secret, TOTP } from 'otpauth';

// What every authenticator app understands: SHA-1, 6 digits, 30-second steps (RFC 6238's defaults).
const TOTP_SETTINGS = { algorithm: 'SHA1', digits: 6, period: 30 } as const;
/** Codes of the step before and after the current one are accepted too, for clocks a little off. */
const WINDOW = 1;

/** A new random secret of 160 bits (RFC 4226's recommended size), base32. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** The `otpauth://totp/...` URI an authenticator app reads (from a QR code or pasted). */
export function totpUri(secret: string, issuer: string, label: string): string {
  return new TOTP({ ...TOTP_SETTINGS, issuer, label, secret: Secret.fromBase32(secret) }).toString();
}

/** The time step `code` belongs to, if it is the code of a step within the window around `timestamp` (ms). */
export function totpStep(secret: string, code: string, timestamp: number): number | undefined {
  if (!/^\d{6}$/.test(code)) return undefined;
  const totp = new TOTP({ ...TOTP_SETTINGS, secret: Secret.fromBase32(secret) });
  const delta = totp.validate({ token: code, timestamp, window: WINDOW });
  return delta === null ? undefined : totp.counter({ timestamp }) + delta;
}
