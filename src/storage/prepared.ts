import type { Compilable, CompiledQuery, Kysely } from 'kysely';
import type { Database } from './database.js';

/**
 * A statement's parameter array carrying `true` under this registered symbol asks the driver view
 * of ours (pg.ts for pools we create, pglite.ts) for rows as arrays in column order instead of
 * objects: pg's and PGlite's object rows are built by one shared function for every statement of
 * the process, whose V8 feedback turns polymorphic once other row shapes (migrations, orders)
 * have passed through it (about half of a 100-pet page's CPU gap, docs/performance.md). The
 * caller maps the arrays with code that only ever sees its own rows. A driver that ignores the
 * tag returns objects, which are used as they are.
 */
const ROWS_AS_ARRAYS: unique symbol = Symbol.for('petstore-router.rowsAsArrays') as never;

/** Whether a parameter array asks for rows as arrays (see {@link ROWS_AS_ARRAYS}). */
export function wantsArrayRows(values: unknown): boolean {
  return (values as { [ROWS_AS_ARRAYS]?: unknown } | undefined)?.[ROWS_AS_ARRAYS] === true;
}

/** Stands for a parameter while a statement shape is compiled once. */
class Slot {
  constructor(readonly index: number) {}
}

interface Prepared {
  compiled: CompiledQuery<unknown>;
  /** For each compiled parameter: the index of the argument it takes, or -1 (a constant). */
  sources: number[];
}

/**
 * Compiled statements, per dialect adapter and per plugin list (a Transaction shares both with its
 * Kysely; `withPlugin` gives a new list, so a plugin's transformQuery still applies), per shape.
 */
const cache = new WeakMap<object, WeakMap<object, Map<string, Prepared>>>();

/**
 * Runs a statement shape built once with Kysely's query builder and then reused: building and
 * compiling a query on every request (operation nodes, freezing, visiting) was ~7% of the
 * server's CPU (docs/performance.md). `build` receives one placeholder per argument; the SQL text
 * is exactly what Kysely compiles, the arguments are bound as parameters in the compiled order.
 * `shape` names the statement (and must change whenever `build` would produce other SQL).
 *
 * With `fromArray` (the row as an array in the statement's column order, to R), the driver is
 * asked for array rows (see {@link ROWS_AS_ARRAYS}) unless the Kysely has plugins, whose
 * `transformResult` expects objects.
 */
export async function runPrepared<R>(
  db: Kysely<Database>,
  shape: string,
  args: readonly unknown[],
  build: (db: Kysely<Database>, ...slots: never[]) => Compilable<R>,
  fromArray?: (row: readonly unknown[]) => R,
): Promise<R[]> {
  const executor = db.getExecutor();
  let byPlugins = cache.get(executor.adapter);
  if (!byPlugins) cache.set(executor.adapter, (byPlugins = new WeakMap()));
  let shapes = byPlugins.get(executor.plugins);
  if (!shapes) byPlugins.set(executor.plugins, (shapes = new Map()));
  let prepared = shapes.get(shape);
  if (!prepared) {
    const slots = args.map((_, i) => new Slot(i));
    const compiled = build(db, ...(slots as never[])).compile() as CompiledQuery<unknown>;
    const sources = compiled.parameters.map((p) => (p instanceof Slot ? p.index : -1));
    prepared = { compiled, sources };
    shapes.set(shape, prepared);
  }
  const { compiled, sources } = prepared;
  const parameters = sources.map((source, i) => (source === -1 ? compiled.parameters[i] : args[source]));
  const query = { ...compiled, parameters } as CompiledQuery<R>;
  let rows: R[];
  if (executor.plugins.length === 0) {
    if (fromArray !== undefined) (parameters as { [ROWS_AS_ARRAYS]?: true })[ROWS_AS_ARRAYS] = true;
    // What `db.executeQuery` does without plugins (nothing to transform), minus its two async
    // layers around this call: ~6 promise hops per query fewer (docs/performance.md, item 23).
    // The executor's own connection provider still decides the connection (a Transaction's).
    rows = (await executor.provideConnection((connection) => connection.executeQuery<R>(query))).rows;
  } else {
    rows = (await db.executeQuery(query)).rows;
  }
  if (fromArray === undefined || rows.length === 0 || !Array.isArray(rows[0])) return rows;
  const records = new Array<R>(rows.length);
  for (let i = 0; i < rows.length; i++) records[i] = fromArray(rows[i] as unknown as unknown[]);
  return records;
}
