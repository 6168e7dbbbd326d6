import type { Server as HttpServer } from 'node:http';
import type { Server as HttpsServer } from 'node:https';
import { isIP, type Socket } from 'node:net';

/** The first byte of a TLS connection: a handshake record. Plain HTTP starts with a method's letter. */
const TLS_HANDSHAKE = 0x16;
/** A connection that sends nothing in this long is dropped before either protocol sees it. */
const FIRST_BYTE_TIMEOUT_MS = 30_000;
/** A refused plain connection is closed this long after its answer if the caller keeps it open. */
const REFUSED_LINGER_MS = 5_000;

/** Loopback peers, as node:net reports them (IPv4, IPv6, IPv4-mapped IPv6). */
export function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  const plain = address.startsWith('::ffff:') && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
  return plain === '::1' || (isIP(plain) === 4 && plain.startsWith('127.'));
}

/**
 * Makes a TLS port also answer plain HTTP from this machine: each connection's first byte says
 * which it speaks (a TLS handshake, or an HTTP method), and a plain one from loopback goes to
 * `plain`, a server with the same handlers. Clients that cannot speak TLS or take a CA
 * (litecoin-cli, bitcoin-cli) then call `http://127.0.0.1:<port>/` on the same port as everyone
 * else's https. A plain connection from elsewhere gets a 400 saying to use https and is closed, so
 * no credential crosses a network in the clear through the proxy.
 */
export function acceptLoopbackHttp(tls: HttpsServer, plain: HttpServer, admits: (address: string | undefined) => boolean = isLoopback): void {
  const tlsListeners = tls.listeners('connection') as ((socket: Socket) => void)[];
  tls.removeAllListeners('connection');
  tls.on('connection', (socket: Socket) => {
    socket.setTimeout(FIRST_BYTE_TIMEOUT_MS, () => socket.destroy());
    socket.once('data', (first: Buffer) => {
      socket.setTimeout(0);
      socket.pause();
      socket.unshift(first);
      if (first[0] === TLS_HANDSHAKE) {
        for (const listener of tlsListeners) listener.call(tls, socket);
      } else if (admits(socket.remoteAddress)) {
        plain.emit('connection', socket);
      } else {
        refusePlain(socket);
        return;
      }
      process.nextTick(() => socket.resume());
    });
    socket.on('error', () => socket.destroy());
  });
}

function refusePlain(socket: Socket): void {
  const body = JSON.stringify({ code: 'HttpsRequired', message: 'this port speaks HTTPS to callers from other machines: use an https:// address' });
  // Read and drop what it sent (closing with unread bytes would reset the answer away), answer,
  // and close once it has: at most a few seconds later.
  socket.on('data', () => {});
  socket.setTimeout(REFUSED_LINGER_MS, () => socket.destroy());
  socket.end(`HTTP/1.1 400 Bad Request\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`);
  socket.resume();
}
