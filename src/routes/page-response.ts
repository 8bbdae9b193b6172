import { jsonArray } from '../http/json-write.js';
import { type JsonAnswer, jsonResponse } from '../http/answer.js';
import type { Page } from '../model.js';
import { type CursorState, encodeCursor } from '../schemas/cursor.js';
import { nextLink } from './link.js';

/**
 * The 200 answer of a list: a plain JSON array, plus `Link rel="next"` (carrying the cursor of
 * the last item and repeating `limit` and `status`) when another page follows.
 */
export function pageResponse<T extends { id: bigint | string }>(
  url: URL,
  page: Page<T>,
  scope: { list: CursorState['list']; limit: number; status?: string },
  write: (item: T) => string,
): JsonAnswer {
  let headers: Record<string, string> | undefined;
  if (page.hasMore) {
    const afterId = page.items[page.items.length - 1]!.id;
    const cursor = encodeCursor({ list: scope.list, status: scope.status ?? '', afterId });
    headers = { link: nextLink(url, { limit: String(scope.limit), status: scope.status, cursor }) };
  }
  return jsonResponse(200, jsonArray(page.items, write), headers);
}
