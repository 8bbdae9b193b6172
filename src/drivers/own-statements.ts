import { sha256Hex } from '../http/sha256.js';

/**
 * The SQL texts the store compiled itself (storage/statement.ts), which the drivers of this package
 * treat specially: rows as arrays in column order, and under pg a statement name. Any other text
 * (a caller's own query, Kysely's `begin`, migrations) passes through the drivers untouched.
 */
export interface OwnStatement {
  /**
   * The statement name under pg: derived from the SQL text alone, so one name always means one
   * text in every process and on every backend a pooler hands out (never a per-process counter).
   */
  readonly name: string;
}

/**
 * The comment every text of the store's own statements starts with (storage/statement.ts): a
 * caller's query of the same SQL without it is a different text, so it is never taken for ours.
 * It also names the store's statements in PostgreSQL's logs and pg_stat_statements.
 */
export const OWN_STATEMENT_MARK = '/* petstore-router */ ';

/** The store compiles a few statements per dialect and schema; past this, new ones run as plain queries. */
const MAX_OWN_STATEMENTS = 1024;
const own = new Map<string, OwnStatement>();

/** Records `text` as one of the store's own statements. */
export function registerOwnStatement(text: string): void {
  if (own.has(text) || own.size >= MAX_OWN_STATEMENTS) return;
  // 128 bits of SHA-256: a collision between two of our texts is not a practical concern, and the
  // name stays well under PostgreSQL's 63-byte identifier limit.
  own.set(text, { name: `petstore_${sha256Hex(text).slice(0, 32)}` });
}

/** The entry of `text` if the store compiled it, else undefined. */
export function ownStatement(text: string): OwnStatement | undefined {
  return own.get(text);
}
