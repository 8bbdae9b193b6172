// How many rows a keyset page statement of the pet repository reads (a constant in its SQL).

/** Row counts a page statement may read (see {@link pageRows}); each is one statement per shape. */
const PAGE_ROWS = [11, 21, 51, 101] as const;

/**
 * How many rows a page of `limit` items reads: `limit + 1` (to learn whether more follow), rounded
 * up to one of a few constants written into the SQL text. With `limit $n` a parameter, PostgreSQL
 * plans the named statement's generic plan for 10% of the table; at 1,000,000 pets that plan cost
 * 4,000 against 13 for the real limit, so it re-planned every execution (custom plans,
 * `pg_prepared_statements`: 0 generic of 12 at 1M, 7 of 12 at 1K): ~90 us per filter request,
 * which made latency grow with the table (docs/performance.md, item 18). A constant limit gives a generic
 * plan whose cost is right at any size. Rounding keeps the statements few (4 per shape); a page
 * reads at most 2.5x its rows, and exactly `limit + 1` for the default 20 and the maximum 100.
 */
export function pageRows(limit: number): number {
  for (const rows of PAGE_ROWS) if (limit + 1 <= rows) return rows;
  return limit + 1;
}
