import { test } from 'uvu';
import * as assert from 'uvu/assert';
import pg from 'pg';
import { parseCommand } from '../adapters/cli/args.js';
import { createPostgresDatabase } from '../src/pg.js';
import { checkThenRead, withLiterals } from '../src/drivers/pg/replica-read.js';
import { PrimaryPosition } from '../src/drivers/pg/wal-position.js';

// The rules of read routing that need no server: the sharing of the primary's WAL position, the
// read written with literals, the options. The behaviour on real replication is in
// test/behaviour.replica*.test.ts and test/reliability/replica-*.test.ts.

test('the primary position: reads asking in one turn share one query, sent after all of them asked', async () => {
  const sent: number[] = [];
  let asked = 0;
  const position = new PrimaryPosition(() => {
    sent.push(asked);
    return Promise.resolve(`0/${sent.length}`);
  });
  asked++;
  const a = position.after();
  asked++;
  const b = position.after();
  assert.is(sent.length, 0, 'nothing is sent while reads may still join');
  assert.is(await a, '0/1');
  assert.is(await b, '0/1');
  assert.equal(sent, [2], 'one query, sent after both reads asked');
});

test('the primary position: a read asking after the query was sent never shares it', async () => {
  let release: (lsn: string) => void = () => {};
  let count = 0;
  const position = new PrimaryPosition(() => {
    count++;
    return new Promise<string>((resolve) => (release = resolve));
  });
  const first = position.after();
  await new Promise((resolve) => setImmediate(resolve)); // the first query is now out
  assert.is(count, 1);
  const second = position.after(); // arrives while the first query runs
  assert.is.not(second, first);
  release('0/A');
  assert.is(await first, '0/A');
  await new Promise((resolve) => setImmediate(resolve));
  assert.is(count, 2, 'the later read has a query of its own');
  release('0/B');
  assert.is(await second, '0/B');
});

test('the primary position: anything but a WAL position is refused (it is written into SQL)', async () => {
  const position = new PrimaryPosition(() => Promise.resolve("0/1'; drop table x; --"));
  await position.after().then(
    () => assert.unreachable('accepted'),
    (error: Error) => assert.match(error.message, /not a WAL position/),
  );
});

test('the read with literals: untyped quoted literals in place of $n, quoted identifiers untouched', () => {
  assert.is(
    withLiterals('select "a$1" from "t" where "id" = $1 and "s" = $2 limit $3', [42n, "it's", 5]),
    `select "a$1" from "t" where "id" = '42' and "s" = 'it''s' limit '5'`,
  );
  assert.is(
    withLiterals('select $1, $2, $3', [null, true, new Date('2026-01-02T03:04:05.000Z')]),
    `select null, 'true', '2026-01-02T03:04:05.000Z'`,
  );
  assert.is(withLiterals('select $1', ['a\\b']), "select  E'a\\\\b'", 'pg.escapeLiteral: E-string for a backslash');
});

test('the read with literals: refused for what it cannot write safely (the check then runs before the read)', () => {
  assert.is(withLiterals("select 'x' where id = $1", [1]), undefined, 'a string literal');
  assert.is(withLiterals('select $$x$$', []), undefined, 'dollar quoting');
  assert.is(withLiterals('select $2', [1]), undefined, 'a missing parameter');
  assert.is(withLiterals('select $1', [{ a: 1 }]), undefined, 'an object');
  assert.is(withLiterals('select $1', [Number.NaN]), undefined, 'NaN');
  assert.is(withLiterals('select $1', ['a\0b']), undefined, 'NUL');
  assert.is(checkThenRead('0/1', "select 'x'", []), undefined);
});

test('check then read: the check first, then the read, as two statements of a READ COMMITTED transaction', () => {
  assert.is(
    checkThenRead('16/B374D848', 'select "id" from "t" where "id" = $1', [7n]),
    `begin isolation level read committed; select coalesce(pg_last_wal_replay_lsn() >= '16/B374D848'::pg_lsn, false) as caught_up; select "id" from "t" where "id" = '7'; commit`,
  );
});

test('options: readReplicas and maxReplicaLagMs are checked at creation, naming the option', async () => {
  const url = 'postgres://postgres:postgres@127.0.0.1:1/none';
  // Synchronously, as every option of createPostgresDatabase (src/options/pg.ts).
  const refused = (options: object, message: RegExp, source: string | pg.Pool = url) =>
    assert.throws(
      () => void createPostgresDatabase(source, options),
      (e: Error) => e instanceof TypeError && message.test(e.message),
    );
  refused({ readReplicas: 'postgres://r/db' }, /options\.readReplicas must be an array/);
  refused({ readReplicas: [''] }, /options\.readReplicas must be an array/);
  refused({ readReplicas: [42] }, /options\.readReplicas must be an array/);
  refused({ readReplicas: ['postgres://r/db'], maxReplicaLagMs: 0 }, /options\.maxReplicaLagMs must be a positive number/);
  const pool = new pg.Pool({ connectionString: url });
  refused(
    { readReplicas: ['postgres://r/db'] },
    /options\.readReplicas must be absent with a pg\.Pool of yours \(got an array\): pass the primary as a URL or pg\.PoolConfig/,
    pool,
  );
  refused({ readReplicas: [{ connectionString: 'mysql://r/db' }] }, /options\.readReplicas must be a postgres:\/\/ or postgresql:\/\/ URL/);
  await pool.end();
});

test('CLI: --read-replica is repeatable, PETSTORE_READ_REPLICA_URLS is comma-separated, the flags win', () => {
  const serve = (argv: string[], env: NodeJS.ProcessEnv = {}) => parseCommand(['serve', '--database', 'postgres://p/db', ...argv], env);
  assert.equal(
    (serve(['--read-replica', 'postgres://r1/db', '--read-replica', 'postgres://r2/db']) as { readReplicas?: string[] }).readReplicas,
    ['postgres://r1/db', 'postgres://r2/db'],
  );
  const env = { PETSTORE_READ_REPLICA_URLS: 'postgres://e1/db, postgres://e2/db,' };
  assert.equal((serve([], env) as { readReplicas?: string[] }).readReplicas, ['postgres://e1/db', 'postgres://e2/db']);
  assert.equal((serve(['--read-replica', 'postgres://f/db'], env) as { readReplicas?: string[] }).readReplicas, ['postgres://f/db']);
  assert.is((serve([]) as { readReplicas?: string[] }).readReplicas, undefined);
});

test.run();
