import {
  type CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type QueryResult,
} from 'kysely';
import type { Database } from '../../storage/database.js';
import type { ReadView } from '../read-view.js';
import { attachStatementRunner } from '../statement-runner.js';
import type { ReplicaSet } from './replicas.js';

const NOT_FOR_WRITES = 'petstore-router: the read view of a database with read replicas runs single reads only, never a transaction';

/**
 * The read side of a database with read replicas (Kysely's documented Dialect and Driver
 * interfaces): every query is one read routed by the {@link ReplicaSet}, which owns the
 * connections; `destroy()` of this Kysely ends nothing (the primary's `db.destroy()` does). The
 * store's own statements take the same route by the runner attached to it (statement-runner.ts).
 */
export function readView(replicas: ReplicaSet): ReadView {
  const connection: DatabaseConnection = {
    executeQuery: <R>(query: CompiledQuery): Promise<QueryResult<R>> =>
      replicas.read(query.sql, query.parameters).then((rows) => ({ rows: rows as R[] })),
    streamQuery: () => {
      throw new Error('petstore-router: the read view does not stream');
    },
  };
  const driver: Driver = {
    init: async () => {},
    acquireConnection: () => Promise.resolve(connection),
    beginTransaction: () => Promise.reject(new Error(NOT_FOR_WRITES)),
    commitTransaction: () => Promise.reject(new Error(NOT_FOR_WRITES)),
    rollbackTransaction: () => Promise.reject(new Error(NOT_FOR_WRITES)),
    releaseConnection: async () => {},
    destroy: async () => {},
  };
  const dialect: Dialect = {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => driver,
    createIntrospector: (db) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  };
  const db = new Kysely<Database>({ dialect });
  attachStatementRunner(db, { run: (sql, parameters, map) => replicas.read(sql, parameters).then((rows) => map(rows as unknown[][])) });
  return { db, routing: () => replicas.routing() };
}
