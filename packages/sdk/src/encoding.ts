// Base64 without Node's Buffer, so the SDK runs in browsers (the web console) as well as Node.

/** Standard base64 of a string's UTF-8 bytes (a Basic authorization header). */
export function base64Utf8(text: string): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** The UTF-8 text of base64url (a JWT segment); throws on anything that is not base64url. */
export function fromBase64Url(encoded: string): string {
  const standard = encoded.replace(/-/g, '+').replace(/_/g, '/');
  const binary = atob(standard + '='.repeat((4 - (standard.length % 4)) % 4));
  return new TextDecoder().decode(Uint8Array.from(binary, (char) => char.charCodeAt(0)));
}

/** `Basic <base64 of user:password>`. */
export function basicAuthorization(user: string, password: string): string {
  return `Basic ${base64Utf8(`${user}:${password}`)}`;
}
