import { createServer } from 'node:net';
import { Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { Database, PetStore } from '../../src/index.js';
import { inProcess } from './harness.js';
import { nodeSocket } from './node-transport.js';

/** The two ways the operating features are checked: in-process and through the Node server. */
export const transports = [inProcess, nodeSocket];

/** Mounts `store` with `transport` and runs `fn` with its fetch; always closes. */
export async function mounted<T>(
  transport: (typeof transports)[number],
  store: PetStore,
  fn: (fetch: (r: Request) => Promise<Response>) => Promise<T>,
): Promise<T> {
  const m = await transport.mount(store);
  try {
    return await fn(m.fetch);
  } finally {
    await m.close();
  }
}

/** A database whose every query fails with a plain error (the store answers 500). */
export function brokenDatabase(): Kysely<Database> {
  return fakeDatabase(async () => {
    throw new Error('boom: a bug below the store');
  });
}

/** A Kysely database without a database: every statement is answered by `execute`. */
export function fakeDatabase(execute: () => Promise<{ rows: unknown[] }>): Kysely<Database> {
  return new Kysely<Database>({
    dialect: {
      createAdapter: () => new PostgresAdapter(),
      createQueryCompiler: () => new PostgresQueryCompiler(),
      createIntrospector: (db) => new PostgresIntrospector(db),
      createDriver: () => ({
        init: async () => {},
        acquireConnection: async () => ({
          executeQuery: execute as never,
          streamQuery: () => {
            throw new Error('boom');
          },
        }),
        beginTransaction: async () => {},
        commitTransaction: async () => {},
        rollbackTransaction: async () => {},
        releaseConnection: async () => {},
        destroy: async () => {},
      }),
    },
  });
}

/** PostgreSQL that refuses connections (nothing listens on port 1). */
export function unreachableDatabase(): Kysely<Database> {
  return new Kysely<Database>({
    dialect: new PostgresDialect({
      pool: new pg.Pool({ host: '127.0.0.1', port: 1, user: 'x', password: 'hunter2', connectionTimeoutMillis: 5_000 }),
    }),
  });
}

/** PostgreSQL that accepts connections and never answers (a hung database). */
export async function hungDatabase(): Promise<{ db: Kysely<Database>; connections(): number; close(): Promise<void> }> {
  const sockets = new Set<import('node:net').Socket>();
  const server = createServer((s) => (sockets.add(s), s.on('error', () => {})));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  const db = new Kysely<Database>({
    dialect: new PostgresDialect({
      pool: new pg.Pool({ host: '127.0.0.1', port, user: 'x', password: 'hunter2', connectionTimeoutMillis: 30_000 }),
    }),
  });
  return {
    db,
    /** Connections the store's pool opened to the hung server so far. */
    connections: () => sockets.size,
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
      await db.destroy().catch(() => {});
    },
  };
}
