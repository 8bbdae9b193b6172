/**
 * The standalone server's load-shedding bound when `--max-in-flight` is not given: four requests
 * per connection of the store's pool (pg's default pool of 10, which the CLI keeps), at least 32.
 * One request per connection keeps every connection busy; three more per connection cover the part
 * of a request spent outside the database (reading, checking, writing the answer) so the pool never
 * idles between statements. Past that, a request would only wait for a connection: its latency
 * grows and nothing more is done per second, so it is answered 503 at once instead. At least 32, so
 * an ordinary burst of a few dozen clients (and PGlite, one connection in the process) is never
 * refused. docs/operations.md, "Load shedding", says how it was chosen and how to tune it.
 */
export function defaultMaxInFlight(command: { database?: string }): number {
  const connections = command.database === undefined ? 1 : PG_POOL_SIZE;
  return Math.max(MIN_IN_FLIGHT, REQUESTS_PER_CONNECTION * connections);
}

/** pg's default pool size (`max`), which the server's pool keeps. */
const PG_POOL_SIZE = 10;
const REQUESTS_PER_CONNECTION = 4;
const MIN_IN_FLIGHT = 32;
