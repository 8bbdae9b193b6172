import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ApiError } from '../src/errors.js';
import { toApiError } from '../src/pipeline/respond.js';
import { isDatabaseUnavailable } from '../src/drivers/errors.js';

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
    new Error('PGlite is closed'),
    new AggregateError([withCode('ECONNREFUSED')], ''),
    new Error('wrapped', { cause: withCode('ECONNRESET') }),
  ]) {
    assert.ok(isDatabaseUnavailable(e), String(e));
    const api = toApiError(e);
    assert.is(api.status, 503);
    assert.is(api.headers?.['retry-after'], '5');
  }
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
