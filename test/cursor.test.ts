import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ApiError } from '../src/http/errors.js';
import { decodeCursor, encodeCursor } from '../src/pagination/cursor.js';

test('a cursor round-trips its list, status and last id, over the whole int64 range', () => {
  for (const afterId of [0n, 1n, 9223372036854775807n, -9223372036854775808n]) {
    for (const status of ['', 'available', 'sold']) {
      const cursor = encodeCursor({ list: 'pets', status, afterId });
      assert.match(cursor, /^[A-Za-z0-9_-]+$/);
      assert.is(decodeCursor(cursor, 'pets', status), afterId);
    }
  }
});

const rejects = (fn: () => unknown, message: RegExp) =>
  assert.throws(fn, (e: unknown) => e instanceof ApiError && e.status === 400 && e.details?.[0]?.path === 'cursor' && message.test(e.details[0].message));

test('a cursor of another list or another status filter is refused', () => {
  const cursor = encodeCursor({ list: 'pets', status: 'sold', afterId: 5n });
  rejects(() => decodeCursor(cursor, 'orders', 'sold'), /not a cursor/);
  rejects(() => decodeCursor(cursor, 'pets', ''), /another status/);
  rejects(() => decodeCursor(cursor, 'pets', 'pending'), /another status/);
});

test('malformed cursors are refused, never thrown as anything but a 400', () => {
  for (const c of ['', '=', 'a', '####', 'x'.repeat(200), btoa('pets:sold:'), btoa('pets:sold:01x'), btoa('pets:sold:9223372036854775808'), btoa('pets:SOLD:1')]) {
    rejects(() => decodeCursor(c, 'pets', 'sold'), /.+/);
  }
});

test.run();
