import { type Server, type Socket, connect, createServer } from 'node:net';

export interface FreezingProxy {
  port: number;
  /**
   * A network partition: nothing is forwarded any more in either direction, and nothing is closed
   * (no reset, no FIN); new connections are accepted and never answered. What arrives meanwhile is
   * held, as a network that drops packets holds nothing: it is discarded.
   */
  freeze(): void;
  /** The network is back: forwarding resumes on the connections still open, new ones are served. */
  thaw(): void;
  close(): Promise<void>;
}

/** A TCP proxy in front of PostgreSQL that can freeze without closing any socket. */
export async function startFreezingProxy(targetHost: string, targetPort: number): Promise<FreezingProxy> {
  const sockets = new Set<Socket>();
  let frozen = false;
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    socket.on('error', () => {});
  };
  // Forwarding by hand (not pipe): a frozen link drops what arrives, like a partitioned network.
  const forward = (from: Socket, to: Socket) => {
    from.on('data', (chunk: Buffer) => {
      if (!frozen && !to.destroyed) to.write(chunk);
    });
    from.once('close', () => to.destroy());
  };
  const server: Server = createServer((client) => {
    track(client);
    if (frozen) return; // accepted, never answered
    const upstream = connect(targetPort, targetHost);
    track(upstream);
    forward(client, upstream);
    forward(upstream, client);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  return {
    port: (server.address() as { port: number }).port,
    freeze: () => void (frozen = true),
    thaw: () => void (frozen = false),
    close: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}
