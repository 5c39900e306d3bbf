import { connect, createServer, type Server, type Socket } from 'node:net';

/** A TCP proxy in front of PostgreSQL that a test can cut (every connection dropped, new ones refused) and restore. */
export async function startTcpProxy(targetUrl: string) {
  const target = new URL(targetUrl);
  const sockets = new Set<Socket>();
  let server: Server | undefined;

  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      const next = createServer((client) => {
        const upstream = connect(Number(target.port || 5432), target.hostname);
        for (const socket of [client, upstream]) {
          sockets.add(socket);
          socket.on('error', () => undefined);
          socket.on('close', () => {
            sockets.delete(socket);
            client.destroy();
            upstream.destroy();
          });
        }
        client.pipe(upstream).pipe(client);
      });
      next.once('error', reject);
      next.listen(port, '127.0.0.1', () => {
        server = next;
        const address = next.address();
        resolve(typeof address === 'object' && address ? address.port : port);
      });
    });

  const port = await listen(0);
  const url = new URL(targetUrl);
  url.hostname = '127.0.0.1';
  url.port = String(port);
  return {
    url: url.toString(),
    /** The database goes away: open connections are dropped, new ones refused. */
    async cut() {
      const closing = new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
      for (const socket of sockets) socket.destroy();
      await closing;
      server = undefined;
    },
    /** The database is back on the same address. */
    async restore() {
      await listen(port);
    },
    close() {
      for (const socket of sockets) socket.destroy();
      server?.close();
    },
  };
}
