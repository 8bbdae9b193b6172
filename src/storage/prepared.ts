import type { Compilable, CompiledQuery, Kysely } from 'kysely';
import type { Database } from './database.js';

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
 */
export async function runPrepared<R>(
  db: Kysely<Database>,
  shape: string,
  args: readonly unknown[],
  build: (db: Kysely<Database>, ...slots: never[]) => Compilable<R>,
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
  const result = await db.executeQuery<R>({ ...compiled, parameters } as CompiledQuery<R>);
  return result.rows;
}
