// The one classifier of database errors (src/drivers/classify.ts) and the one mapping of its kinds
// to answers (src/pipeline/respond.ts).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ApiError } from '../src/errors.js';
import { toApiError as toApiErrorWith } from '../src/pipeline/respond.js';
import { NotSentError, classifyDatabaseError as classify, storeFailure } from '../src/drivers/classify.js';
import { StatementTimeoutError } from '../src/drivers/pg/timeout.js';

const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code });
const toApiError = (error: unknown) => toApiErrorWith(error, classify);
const kindOf = (error: unknown) => {
  const failure = classify(error);
  return failure && `${failure.kind}/${failure.stored}`;
};

test('each error of pg, pg-pool, PostgreSQL, Kysely and PGlite gets its kind and whether it may have been stored', () => {
  const cases: [unknown, string][] = [
    [withCode('ECONNREFUSED'), 'unavailable/no'],
    [withCode('ENOTFOUND'), 'unavailable/no'],
    [withCode('57P01', 'terminating connection due to administrator command'), 'unavailable/no'],
    [withCode('57P03', 'the database system is starting up'), 'unavailable/no'],
    [withCode('08006'), 'unavailable/no'],
    [withCode('53300', 'too many connections'), 'unavailable/no'],
    // The server refused the credentials: an operator fixes it, the client can only retry.
    [withCode('28P01', 'password authentication failed for user "postgres"'), 'login_refused/no'],
    [withCode('28000', 'no pg_hba.conf entry for host'), 'login_refused/no'],
    [new AggregateError([withCode('ECONNREFUSED')], ''), 'unavailable/no'],
    [new Error('Client has encountered a connection error and is not queryable'), 'unavailable/no'],
    // The server ended the statement: nothing of it is stored.
    [withCode('57014', 'canceling statement due to statement timeout'), 'timeout/no'],
    // No connection in time: nothing was sent.
    [new Error('timeout exceeded when trying to connect'), 'timeout/no'],
    [new Error('Connection terminated due to connection timeout'), 'timeout/no'],
    // Sent and not answered in time: it may have committed.
    [new StatementTimeoutError(5_000), 'timeout/maybe'],
    [new Error('Query read timeout'), 'timeout/maybe'],
    [new Error('wrapped', { cause: new StatementTimeoutError(20) }), 'timeout/maybe'],
    // The connection was lost while the statement may have been out.
    [new Error('Connection terminated unexpectedly'), 'outcome_unknown/maybe'],
    [withCode('ECONNRESET'), 'outcome_unknown/maybe'],
    [new Error('wrapped', { cause: withCode('ECONNRESET') }), 'outcome_unknown/maybe'],
    [withCode('EPIPE'), 'outcome_unknown/maybe'],
    // A write sent to a standby, or to a primary demoted to one.
    [withCode('25006', 'cannot execute INSERT in a read-only transaction'), 'not_primary/no'],
    [withCode('42P01', 'relation "petstore_pets" does not exist'), 'not_migrated/no'],
    [withCode('42P01', 'relation "tenant_a.petstore_rate_limits" does not exist'), 'not_migrated/no'],
    [withCode('3F000', 'schema "tenant_b" does not exist'), 'not_migrated/no'],
    [new Error('driver has already been destroyed'), 'closed/no'],
    [new Error('PGlite is closed'), 'closed/no'],
    [new Error('Cannot use a pool after calling end on the pool'), 'closed/no'],
  ];
  for (const [error, expected] of cases) assert.is(kindOf(error), expected, String(error));
});

test('not a database failure: query errors, constraints, other tables, bugs', () => {
  for (const e of [
    withCode('42601', 'syntax error at or near "select"'),
    withCode('23505', 'duplicate key'),
    withCode('42P01', 'relation "users" does not exist'),
    new Error('a statement timeout is nowhere at the start of this'),
    new TypeError('x is undefined'),
    'a string',
    null,
  ])
    assert.is(classify(e), undefined, String(e));
});

test('unreachable, timed out, connection lost, not a primary: a 503 service_unavailable with Retry-After', () => {
  for (const e of [
    withCode('ECONNREFUSED'),
    withCode('57014', 'canceling statement due to statement timeout'),
    new StatementTimeoutError(5_000),
    new Error('Connection terminated unexpectedly'),
    withCode('25006', 'cannot execute INSERT in a read-only transaction'),
  ]) {
    const api = toApiError(e);
    assert.is(api.status, 503);
    assert.is(api.code, 'service_unavailable');
    assert.is(api.headers?.['retry-after'], '5');
    assert.is((api as { cause?: unknown }).cause, e);
  }
});

test('a create the store refused unsent (NotSentError) is timeout/no, also for a database whose classifier does not know it', () => {
  assert.is(kindOf(new NotSentError('x')), 'timeout/no');
  assert.equal(storeFailure(new NotSentError('x')), { kind: 'timeout', stored: 'no' });
  assert.is(storeFailure(new Error('x')), undefined);
  assert.match(toApiErrorWith(new NotSentError('x'), storeFailure, true).message, /nothing was stored/);
});

test("a write's 503 says whether it may have been stored: ended by the server (57014) or refused, no; sent and unanswered, maybe", () => {
  const write = (e: unknown) => toApiErrorWith(e, classify, true).message;
  assert.match(write(withCode('57014', 'canceling statement due to statement timeout')), /nothing was stored/);
  assert.match(write(withCode('ECONNREFUSED')), /nothing was stored/);
  assert.match(write(new StatementTimeoutError(5_000)), /may or may not have been stored/);
  assert.match(write(new Error('Connection terminated unexpectedly')), /may or may not have been stored/);
  assert.is(toApiError(withCode('57014')).message, 'the database is unavailable, retry later', 'a read says neither');
});

test('a database closed under the store is a 503 database_closed without Retry-After', () => {
  const api = toApiError(new Error('PGlite is closed'));
  assert.is(api.status, 503);
  assert.is(api.code, 'database_closed');
  assert.is(api.headers?.['retry-after'], undefined);
});

test('our tables or the store schema missing is a 503 database_not_migrated with Retry-After', () => {
  const api = toApiError(withCode('3F000', 'schema "tenant_b" does not exist'));
  assert.is(api.status, 503);
  assert.is(api.code, 'database_not_migrated');
  assert.is(api.headers?.['retry-after'], '5');
});

test('query errors and bugs are 500s with a masked message', () => {
  for (const e of [withCode('23505', 'duplicate key'), new TypeError('x is undefined'), 'a string', null]) {
    const api = toApiError(e);
    assert.is(api.status, 500);
    assert.is(api.message, 'internal server error');
  }
});

test("the store answers with its database's own classifier", () => {
  const e = new Error('a driver of its own says so');
  assert.is(toApiErrorWith(e, () => ({ kind: 'closed', stored: 'no' })).code, 'database_closed');
  assert.is(toApiErrorWith(e, () => undefined).status, 500);
});

test('an ApiError passes through unchanged', () => {
  const e = new ApiError({ status: 404, code: 'not_found', message: 'nope' });
  assert.is(toApiError(e), e);
});

test.run();
