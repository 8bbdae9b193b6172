import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { encodeCursor, readCursor } from '../src/schemas/cursor.js';

test('a cursor round-trips its list, status and last id, over the whole int64 range', () => {
  for (const afterId of [0n, 1n, 9223372036854775807n, -9223372036854775808n]) {
    for (const status of ['', 'available', 'sold']) {
      const cursor = encodeCursor({ list: 'pets', status, afterId });
      assert.match(cursor, /^[A-Za-z0-9_-]+$/);
      assert.equal(readCursor(cursor, 'pets'), { status, afterId });
    }
  }
});

test("a cursor of another list is not read; its status filter is given back for the route's check", () => {
  const cursor = encodeCursor({ list: 'pets', status: 'sold', afterId: 5n });
  assert.is(readCursor(cursor, 'orders'), undefined);
  assert.equal(readCursor(cursor, 'pets'), { status: 'sold', afterId: 5n });
});

test('malformed cursors are not read, never thrown', () => {
  for (const c of [
    '',
    '=',
    'a',
    '####',
    'x'.repeat(200),
    btoa('pets:sold:'),
    btoa('pets:sold:01x'),
    btoa('pets:sold:9223372036854775808'),
    btoa('pets:SOLD:1'),
  ]) {
    assert.is(readCursor(c, 'pets'), undefined, c);
  }
});

test.run();
