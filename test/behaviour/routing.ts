import { CompiledQuery, type DatabaseConnection, type Driver, Kysely, PostgresIntrospector, PostgresQueryCompiler } from 'kysely';
import * as assert from 'uvu/assert';
import type { Database } from '../../src/index.js';
import { KEY } from '../helpers/harness.js';
import { pathsWithAllow, sampleRequests, unknownPaths } from '../helpers/operations.js';
import { type BehaviourRun, area, body, createPet, expectError, insertPets, withStore } from './context.js';

/**
 * A view of `db` whose queries fail like `error` while `state.failing` is true: a wrapping driver
 * (not a plugin's transformQuery, which the store's compiled statements skip), so every statement
 * the store sends reaches it. Connections are borrowed from `db` for as long as Kysely holds them.
 */
function faultyDatabase(db: Kysely<Database>, error: () => Error, state: { failing: boolean }): Kysely<Database> {
  const executor = db.getExecutor();
  const held = new Map<DatabaseConnection, () => void>();
  const run = (connection: DatabaseConnection, sql: string) => connection.executeQuery(CompiledQuery.raw(sql)).then(() => {});
  const driver: Driver = {
    init: async () => {},
    destroy: async () => {},
    acquireConnection: () =>
      new Promise<DatabaseConnection>((resolve, reject) => {
        executor
          .provideConnection(
            (inner) =>
              new Promise<void>((release) => {
                const connection: DatabaseConnection = {
                  executeQuery: (query) => (state.failing ? Promise.reject(error()) : inner.executeQuery(query)),
                  streamQuery: (query, chunkSize) => inner.streamQuery(query, chunkSize),
                };
                held.set(connection, release);
                resolve(connection);
              }),
          )
          .catch(reject);
      }),
    releaseConnection: async (connection) => {
      held.get(connection)?.();
      held.delete(connection);
    },
    beginTransaction: (connection) => run(connection, 'begin'),
    commitTransaction: (connection) => run(connection, 'commit'),
    rollbackTransaction: (connection) => run(connection, 'rollback'),
  };
  return new Kysely<Database>({
    dialect: {
      createAdapter: () => executor.adapter,
      createDriver: () => driver,
      createQueryCompiler: () => new PostgresQueryCompiler(),
      createIntrospector: (k) => new PostgresIntrospector(k),
    },
  });
}

/** Decisions: unknown path, 405 + Allow, HEAD, base path, masked 500, 503 + Retry-After and recovery. */
export function routingBehaviour(run: BehaviourRun): void {
  const test = area(run, 'routing and errors');

  test('an unknown path under the base path: 404 with the Error body', async ({ call }) => {
    const paths = unknownPaths();
    assert.ok(paths.includes('/v1/store') && paths.includes('/v1/pets/1/no-such/thing'), paths.join(' '));
    for (const path of paths) await expectError(await call(path), 404, 'not_found');
  });

  test('a known path with another method: 405 with Allow', async ({ call }) => {
    const table = pathsWithAllow();
    assert.equal(table.find((p) => p.path === '/v1/pets')?.allow, 'GET, HEAD, POST');
    for (const { path, allow } of table) {
      for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'].filter((m) => !allow.split(', ').includes(m))) {
        const res = await call(path, { method });
        assert.is(res.headers.get('allow'), allow, `${method} ${path}`);
        await expectError(res, 405, 'method_not_allowed');
      }
    }
  });

  test('HEAD answers every GET with the same status and headers and no body', async ({ call, db }) => {
    await insertPets(db, [{ name: 'a' }, { name: 'b' }]);
    const gets = sampleRequests().filter((r) => r.method === 'GET');
    const paths = [...gets.map((r) => r.path), ...gets.map((r) => `${r.path}?limit=1`), '/v1/pets/999', '/v1/pets/x', '/v1/nope'];
    for (const path of paths) {
      const get = await call(path);
      const head = await call(path, { method: 'HEAD' });
      assert.is(head.status, get.status, path);
      for (const name of ['content-type', 'link', 'deprecation', 'sunset']) {
        assert.is(head.headers.get(name), get.headers.get(name), `${path} ${name}`);
      }
      assert.is(await head.text(), '', path);
    }
    const anon = await call('/v1/pets', { method: 'HEAD', anonymous: true });
    assert.is(anon.status, 401);
    assert.is(anon.headers.get('www-authenticate'), 'Bearer');
  });

  test('basePath is an option, the empty string included', async ({ db }) => {
    await withStore(run, db, { basePath: '' }, async (call) => {
      assert.is((await call('/pets')).status, 200);
      const pet = await createPet(async (path, init) => call(path.replace(/^\/v1/, ''), init), '{"name":"root","categoryId":1}');
      const res = await call(`/pets/${pet.id}`);
      assert.is(res.status, 200);
      assert.is(new URL(res.headers.get('link')!.slice(1, -1).split('>')[0]!).pathname, '/pets');
      await expectError(await call('/v1/pets'), 404, 'not_found');
    });
    await withStore(run, db, { basePath: '/api/v2/' }, async (call) => {
      assert.is((await call('/api/v2/pets')).status, 200);
      await expectError(await call('/v1/pets'), 404, 'not_found');
      await expectError(await call('/api/v2x/pets'), 404, 'not_found');
    });
  });

  test('an unexpected failure: 500 with a masked message, reported to onError', async ({ db }) => {
    const reported: unknown[] = [];
    const state = { failing: true };
    const broken = faultyDatabase(db, () => new Error('syntax error at or near "SELECT" in select * from petstore_pets'), state);
    await withStore(run, broken, { onError: (e) => reported.push(e) }, async (call) => {
      const err = await expectError(await call('/v1/pets'), 500, 'internal_error');
      assert.not.match(err.message, /select|syntax|petstore_pets|at /i);
      assert.is(err.details, undefined);
    });
    assert.is(reported.length, 1);
  });

  test('the database unreachable: 503 with Retry-After, then recovery without a restart', async ({ db }) => {
    const state = { failing: true };
    const refused = () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    const flaky = faultyDatabase(db, refused, state);
    await withStore(run, flaky, { onError: () => {} }, async (call) => {
      for (const { operationId, method, path, body } of sampleRequests()) {
        const res = await call(path, { method, ...(body === undefined ? {} : { body }) });
        assert.ok(Number(res.headers.get('retry-after')) > 0, operationId);
        await expectError(res, 503, 'service_unavailable');
      }
      state.failing = false;
      const pet = await createPet(call, '{"name":"back","categoryId":1}');
      assert.equal(
        (await body(await call('/v1/pets'))).map((p: { name: string }) => p.name),
        ['back'],
      );
      assert.is(pet.name, 'back');
    });
  });

  test('a store on a database that is not running at all: 503', async ({ db }) => {
    const { createPostgresDatabase } = await import('../../src/pg.js');
    const nowhere = await createPostgresDatabase({ host: '127.0.0.1', port: 1, connectionTimeoutMillis: 1000 }, { migrate: false });
    try {
      await withStore(run, nowhere, { onError: () => {} }, async (call) => {
        const res = await call('/v1/pets');
        assert.ok(res.headers.get('retry-after'));
        await expectError(res, 503, 'service_unavailable');
      });
    } finally {
      await nowhere.destroy();
    }
    assert.ok(db);
  });

  test('the same key works on every path, and the error bodies carry no key', async ({ call }) => {
    const res = await call('/v1/nothing');
    assert.not.match(await res.text(), new RegExp(KEY));
  });

  test.run();
}
