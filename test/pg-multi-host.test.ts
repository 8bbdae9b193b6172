import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createPostgresDatabase } from '../src/pg.js';
import { fits } from '../src/drivers/pg/host-check.js';
import { hostList } from '../src/options/hosts-url.js';

test('a multi-host URL is one URL per host, libpq default port 5432, the list parameters taken out', () => {
  const list = hostList('postgres://u:p%40w@h1:5432,h2:5433,[::1]:6000,h3/db?target_session_attrs=read-write&sslmode=disable', 'source')!;
  assert.equal(list.urls, [
    'postgres://u:p%40w@h1:5432/db?sslmode=disable',
    'postgres://u:p%40w@h2:5433/db?sslmode=disable',
    'postgres://u:p%40w@[::1]:6000/db?sslmode=disable',
    'postgres://u:p%40w@h3:5432/db?sslmode=disable',
  ]);
  assert.equal(list.names, ['h1:5432', 'h2:5433', '[::1]:6000', 'h3:5432']);
  assert.is(list.sessionAttrs, 'read-write');
  assert.is(list.random, false);
  assert.is(hostList('postgresql://h1,h2/db?load_balance_hosts=random', 'source')!.random, true);
  assert.is(hostList('postgresql://h1,h2/db', 'source')!.sessionAttrs, 'any');
});

test('a plain one-host URL is left to pg as it is; one host with target_session_attrs is checked', () => {
  assert.is(hostList('postgres://u:p@h1:5432/db?sslmode=disable', 'source'), undefined);
  assert.is(hostList('postgres://u:p@h1:5432/db?target_session_attrs=any', 'source'), undefined);
  assert.equal(hostList('postgres://u:p@h1/db?target_session_attrs=standby', 'source')!.urls, ['postgres://u:p@h1:5432/db']);
});

test('a wrong list or value fails at creation, naming it and what to write', () => {
  for (const [url, words] of [
    [
      'postgres://h1,h2/db?target_session_attrs=master',
      /source must be a URL whose target_session_attrs is one of any, read-write, read-only, primary, standby, prefer-standby \(got target_session_attrs="master"\)/,
    ],
    ['postgres://h1,h2/db?load_balance_hosts=yes', /load_balance_hosts is disable or random \(got load_balance_hosts="yes"\)/],
    ['postgres://h1,,h2/db', /source must be a URL whose hosts are host or host:port, comma-separated \(got the host ""\)/],
    ['postgres://h1:99999,h2/db', /whose hosts are host or host:port/],
  ] as const) {
    assert.throws(
      () => createPostgresDatabase(url),
      (e: Error) => e instanceof TypeError && words.test(e.message) && e.message.includes('source'),
    );
  }
  assert.throws(
    () => createPostgresDatabase('postgres://h1/db', { readReplicas: ['postgres://h1,h2/db?target_session_attrs=nope'] }),
    /createPostgresDatabase: options\.readReplicas must be a URL whose target_session_attrs is one of/,
  );
});

test("target_session_attrs: libpq's meaning of each value", () => {
  const primary = { standby: false, readOnly: false };
  const standby = { standby: true, readOnly: true };
  const readOnlyPrimary = { standby: false, readOnly: true }; // default_transaction_read_only = on
  const table = {
    any: [true, true, true],
    'read-write': [true, false, false],
    'read-only': [false, true, true],
    primary: [true, false, true],
    standby: [false, true, false],
  } as const;
  for (const [attrs, expected] of Object.entries(table)) {
    assert.equal(
      [primary, standby, readOnlyPrimary].map((v) => fits(v, attrs as keyof typeof table)),
      [...expected],
      attrs,
    );
  }
});

test.run();
