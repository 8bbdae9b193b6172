import { type Server, type Socket, connect, createServer } from 'node:net';

export interface Proxy {
  port: number;
  /** Connections accepted so far (to PostgreSQL through the proxy). */
  accepted(): number;
  /**
   * The outage: every open connection is destroyed (the server sees its connections reset, as
   * when PostgreSQL stops) and new ones are refused (ECONNREFUSED) until `restore()`.
   */
  cut(): Promise<void>;
  /** New connections are accepted but never answered (a database that hangs on connect). */
  blackhole(): Promise<void>;
  /** Open connections keep forwarding; new ones are accepted but never answered. */
  stallNew(): void;
  /** Back to forwarding, on the same port. */
  restore(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A TCP proxy in front of PostgreSQL, so a test can take the database away from one server
 * process (and only from it) without stopping the cluster other tests share.
 */
export async function startProxy(targetHost: string, targetPort: number): Promise<Proxy> {
  const sockets = new Set<Socket>();
  let mode: 'forward' | 'blackhole' = 'forward';
  let accepted = 0;
  const onConnection = (client: Socket) => {
    accepted++;
    sockets.add(client);
    client.once('close', () => sockets.delete(client));
    client.on('error', () => {});
    if (mode === 'blackhole') return; // accepted, never answered
    const upstream = connect(targetPort, targetHost);
    sockets.add(upstream);
    upstream.once('close', () => {
      sockets.delete(upstream);
      client.destroy();
    });
    upstream.on('error', () => client.destroy());
    client.once('close', () => upstream.destroy());
    client.pipe(upstream).pipe(client);
  };
  let server: Server = createServer(onConnection);
  await listen(server, 0);
  const port = (server.address() as { port: number }).port;
  const stop = async () => {
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    for (const socket of sockets) socket.destroy();
    await closed;
  };
  return {
    port,
    accepted: () => accepted,
    cut: stop,
    async blackhole() {
      await stop();
      mode = 'blackhole';
      server = createServer(onConnection);
      await listen(server, port);
    },
    stallNew() {
      mode = 'blackhole';
    },
    async restore() {
      if (server.listening) await stop();
      mode = 'forward';
      server = createServer(onConnection);
      await listen(server, port);
    },
    close: async () => {
      if (server.listening) await stop();
      for (const socket of sockets) socket.destroy();
    },
  };
}

function listen(server: Server, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
}
