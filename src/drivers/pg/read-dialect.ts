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
import type { ReadSide } from '../contract.js';
import type { ReplicaSet } from './replicas.js';

const NOT_FOR_WRITES = 'petstore-router: the read side of a database with read replicas runs single reads only, never a transaction';

/**
 * The read side of a database with read replicas (Kysely's documented Dialect and Driver
 * interfaces): every query is one read routed by the {@link ReplicaSet}, which owns the
 * connections; `destroy()` of this Kysely ends nothing (the primary's `db.destroy()` does). The
 * store's prepared statements take the same route by its runner.
 */
export function readSide<DB>(replicas: ReplicaSet): ReadSide<DB> {
  const connection: DatabaseConnection = {
    executeQuery: <R>(query: CompiledQuery): Promise<QueryResult<R>> =>
      replicas.read(query.sql, query.parameters, undefined).then((rows) => ({ rows: rows as R[] })),
    streamQuery: () => {
      throw new Error('petstore-router: the read side does not stream');
    },
  };
  const driver: Driver = {
    init: () => Promise.resolve(),
    acquireConnection: () => Promise.resolve(connection),
    beginTransaction: () => Promise.reject(new Error(NOT_FOR_WRITES)),
    commitTransaction: () => Promise.reject(new Error(NOT_FOR_WRITES)),
    rollbackTransaction: () => Promise.reject(new Error(NOT_FOR_WRITES)),
    releaseConnection: () => Promise.resolve(),
    destroy: () => Promise.resolve(),
  };
  const dialect: Dialect = {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => driver,
    createIntrospector: (db) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  };
  return {
    db: new Kysely<DB>({ dialect }),
    statements: {
      run: (statement, parameters, map) => replicas.read(statement.sql, parameters, statement).then((rows) => map(rows as unknown[][])),
    },
    routing: () => replicas.routing(),
  };
}
