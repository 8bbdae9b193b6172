import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ApiError } from '../src/errors.js';
import { toApiError } from '../src/pipeline/respond.js';
import { isDatabaseTimeout, isDatabaseUnavailable } from '../src/drivers/errors.js';
import { StatementTimeoutError } from '../src/drivers/pg/timeout.js';

const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code });

test('connection failures of pg, PostgreSQL and PGlite mean "unavailable"', () => {
  for (const e of [
    withCode('ECONNREFUSED'),
    withCode('ETIMEDOUT'),
    withCode('57P01', 'terminating connection due to administrator command'),
    withCode('57P03', 'the database system is starting up'),
    withCode('08006'),
    withCode('53300', 'too many connections'),
    withCode('57014', 'canceling statement due to statement timeout'),
    new Error('Connection terminated unexpectedly'),
    new Error('timeout exceeded when trying to connect'),
    new AggregateError([withCode('ECONNREFUSED')], ''),
    new Error('wrapped', { cause: withCode('ECONNRESET') }),
  ]) {
    assert.ok(isDatabaseUnavailable(e), String(e));
    const api = toApiError(e);
    assert.is(api.status, 503);
    assert.is(api.headers?.['retry-after'], '5');
  }
});

test('waits that ran to their bound are timeouts; refused, reset or terminated connections are not', () => {
  for (const e of [
    new StatementTimeoutError(5_000),
    withCode('57014', 'canceling statement due to statement timeout'),
    new Error('Query read timeout'),
    new Error('timeout exceeded when trying to connect'),
    new Error('wrapped', { cause: new StatementTimeoutError(20) }),
  ])
    assert.ok(isDatabaseTimeout(e), String(e));
  for (const e of [
    withCode('ECONNREFUSED'),
    withCode('ECONNRESET'),
    withCode('57P01', 'terminating connection due to administrator command'),
    new Error('Connection terminated unexpectedly'),
    new Error('driver has already been destroyed'),
    new Error('a statement timeout is nowhere at the start of this'),
  ])
    assert.not.ok(isDatabaseTimeout(e), String(e));
});

test('a database closed under the store (Kysely, PGlite, pg) is a 503 database_closed without Retry-After', () => {
  for (const e of [
    new Error('driver has already been destroyed'),
    new Error('PGlite is closed'),
    new Error('Cannot use a pool after calling end on the pool'),
  ]) {
    const api = toApiError(e);
    assert.is(api.status, 503);
    assert.is(api.code, 'database_closed');
    assert.is(api.headers?.['retry-after'], undefined);
  }
});

test('our tables missing (42P01 on petstore_*) or the store schema missing (3F000) is a 503 database_not_migrated', () => {
  for (const e of [
    withCode('42P01', 'relation "petstore_pets" does not exist'),
    withCode('42P01', 'relation "tenant_a.petstore_rate_limits" does not exist'),
    withCode('3F000', 'schema "tenant_b" does not exist'),
  ]) {
    const api = toApiError(e);
    assert.is(api.status, 503);
    assert.is(api.code, 'database_not_migrated');
    assert.is(api.headers?.['retry-after'], '5');
  }
  // Another table of the host's database missing is not ours to explain: a masked 500.
  assert.is(toApiError(withCode('42P01', 'relation "users" does not exist')).status, 500);
});

test('query errors and bugs are 500s with a masked message', () => {
  for (const e of [
    withCode('42601', 'syntax error at or near "select"'),
    withCode('23505', 'duplicate key'),
    new TypeError('x is undefined'),
    'a string',
    null,
  ]) {
    assert.not.ok(isDatabaseUnavailable(e), String(e));
    const api = toApiError(e);
    assert.is(api.status, 500);
    assert.is(api.message, 'internal server error');
  }
});

test('an ApiError passes through unchanged', () => {
  const e = new ApiError(404, 'not_found', 'nope');
  assert.is(toApiError(e), e);
});

test.run();
