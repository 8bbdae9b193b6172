import type { Kysely } from 'kysely';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Database } from '../../src/index.js';
import { createPostgresDatabase, readRouting } from '../../src/pg.js';
import { runBehaviourSuite } from '../behaviour/suite.js';
import { inProcess } from '../helpers/harness.js';
import { cluster, clusterDatabase, ha, hostsOf, withHosts } from './helpers/cluster.js';

// The whole behavioural suite on the Patroni cluster through a libpq multi-host URL
// (target_session_attrs=read-write): once with the primary first in the list, once with the
// standbys first (each connection then passes over them to the primary), that run with the same
// list as read replicas (target_session_attrs=standby). Runs before failover.test.ts (file order).
const ha3 = cluster();
let setup: Promise<{ primaryFirst: string; standbyFirst: string; replicas: string; drop(): Promise<void> }> | undefined;
function urls() {
  setup ??= (async () => {
    const { url, proxyUrl, port } = ha3!;
    const db = await clusterDatabase(proxyUrl, 'behaviour');
    const primary = `127.0.0.1:${await ha(port, 'primary')}`;
    const others = hostsOf(url).filter((h) => h !== primary);
    assert.is(others.length, 2, 'the primary is one of the listed hosts');
    const rw = '?target_session_attrs=read-write';
    return {
      primaryFirst: withHosts(url, [primary, ...others], db.name, rw),
      standbyFirst: withHosts(url, [...others, primary], db.name, rw),
      replicas: withHosts(url, [...others, primary], db.name, '?target_session_attrs=standby'),
      drop: () => db.drop(),
    };
  })();
  return setup;
}

const opened: Promise<Kysely<Database>>[] = [];
function open(pick: (u: Awaited<ReturnType<typeof urls>>) => Promise<Kysely<Database>>): () => Promise<Kysely<Database>> {
  let db: Promise<Kysely<Database>> | undefined;
  return () => {
    if (db === undefined) opened.push((db = urls().then(pick)));
    return db;
  };
}

if (ha3) {
  const primaryFirst = open((u) => createPostgresDatabase(u.primaryFirst));
  // Migrated by the first run; the second needs the database only.
  const standbyFirst = open((u) =>
    primaryFirst().then(() => createPostgresDatabase(u.standbyFirst, { readReplicas: [u.replicas], migrate: false })),
  );
  runBehaviourSuite({ label: 'multi-host URL, primary first', transport: inProcess, getDb: primaryFirst });
  runBehaviourSuite({ label: 'multi-host URL, standbys first, the list as read replicas', transport: inProcess, getDb: standbyFirst });
  test('the read replicas from the list: both standbys up and reading, the primary not a replica', async () => {
    const routing = readRouting(await standbyFirst())!;
    const states = routing.replicas.map((r) => r.state).sort();
    assert.equal(states, ['down', 'up', 'up'], JSON.stringify(routing));
    assert.ok(
      routing.replicas.filter((r) => r.state === 'up').every((r) => r.reads > 0),
      JSON.stringify(routing),
    );
  });
  test.after(async () => {
    for (const db of opened) await (await db).destroy();
    await (await setup)?.drop();
  });
  test.run();
} else console.log('failover/behaviour: PG_HA_URL unset, the multi-host run skipped');
