import net from 'node:net';

/** `preferred` while nothing listens on it, else a free port the system picks. */
export async function choosePort(preferred: number | undefined): Promise<number> {
  if (preferred !== undefined && (await listenOn(preferred)) !== undefined) return preferred;
  const port = await listenOn(0);
  if (port === undefined) throw new Error('no free port on 127.0.0.1');
  return port;
}

/** Listens on 127.0.0.1:`port` and closes again: the port bound, or undefined when it is taken. */
function listenOn(port: number): Promise<number | undefined> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', (error: NodeJS.ErrnoException) => (error.code === 'EADDRINUSE' ? resolve(undefined) : reject(error)));
    server.listen({ port, host: '127.0.0.1', exclusive: true }, () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : undefined));
    });
  });
}
