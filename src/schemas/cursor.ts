import { parseInt64Text } from './int64.js';

/**
 * Opaque keyset cursors. A cursor records the list it belongs to, the `status` filter it was
 * issued for and the last id of the page, base64url-encoded so clients treat it as a token.
 * Cursors are not secret: forging one only moves where a list the caller may read starts.
 */
export interface CursorState {
  list: 'pets' | 'orders';
  status: string;
  /** The last id of the page: a bigint, or canonical decimal text as the repositories return it. */
  afterId: bigint | string;
}

const BASE64URL = /^[A-Za-z0-9_-]+$/;
const DECODED = /^(pets|orders):([a-z]*):(-?[0-9]+)$/;

export function encodeCursor(state: CursorState): string {
  return btoa(`${state.list}:${state.status}:${state.afterId}`).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/**
 * Reads a cursor issued by `list`: its `status` filter and last id, or undefined for anything
 * else (malformed, another list's, an id outside int64).
 */
export function readCursor(cursor: string, list: CursorState['list']): { status: string; afterId: bigint } | undefined {
  let text = '';
  if (cursor.length <= 128 && BASE64URL.test(cursor)) {
    try {
      text = atob(cursor.replace(/-/g, '+').replace(/_/g, '/'));
    } catch {
      text = '';
    }
  }
  const m = DECODED.exec(text);
  const afterId = m ? parseInt64Text(m[3]!) : undefined;
  return m && m[1] === list && afterId !== undefined ? { status: m[2]!, afterId } : undefined;
}

/** The `details` entry of a cursor issued with another `status` filter than the request's. */
export const CURSOR_OTHER_FILTER = { path: 'cursor', message: 'was issued for another status filter' } as const;
