// How many rows a keyset page statement of the pet repository reads (a constant in its SQL).

/** Row counts a page statement may read (see {@link pageRows}); each is one statement per shape. */
export const PAGE_ROWS = [11, 21, 51, 101] as const;

/**
 * How many rows a page of `limit` items reads: `limit + 1` (to learn whether more follow), rounded
 * up to one of a few constants written into the SQL text. With `limit $n` a parameter, PostgreSQL
 * plans a named statement's generic plan for 10% of the table, which is far off for a large table,
 * so it re-plans on every execution and latency grows with the table (measured in
 * docs/performance.md). A constant limit gives a generic plan whose cost is right at any size.
 * Rounding keeps the statements few (4 per shape); a page reads at most 2.5x its rows, and exactly
 * `limit + 1` for the default 20 and the maximum 100.
 */
export function pageRows(limit: number): number {
  for (const rows of PAGE_ROWS) if (limit + 1 <= rows) return rows;
  throw new RangeError(`petstore-router: a page holds at most ${PAGE_ROWS[PAGE_ROWS.length - 1]! - 1} items, got ${limit}`);
}
