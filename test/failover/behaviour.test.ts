import { type Kysely, sql } from 'kysely';
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
  test("target_session_attrs and load_balance_hosts on the cluster: libpq's choice of server, in both orders", async () => {
    const { url, port } = ha3;
    const primary = `127.0.0.1:${await ha(port, 'primary')}`;
    const standbys = hostsOf(url).filter((h) => h !== primary);
    const serverOf = async (hosts: string[], query: string) => {
      const db = await createPostgresDatabase(withHosts(url, hosts, 'postgres', query), { migrate: false });
      try {
        const { rows } = await sql<{ port: number }>`select inet_server_port() as port`.execute(db);
        return `127.0.0.1:${rows[0]!.port}`;
      } finally {
        await db.destroy();
      }
    };
    for (const [hosts, standbyFirst] of [
      [[primary, ...standbys], standbys[0]!],
      [[...standbys, primary], standbys[0]!],
    ] as const) {
      const expected = {
        any: hosts[0],
        'read-write': primary,
        primary,
        'read-only': standbyFirst,
        standby: standbyFirst,
        'prefer-standby': standbyFirst,
      };
      for (const [attrs, server] of Object.entries(expected)) {
        assert.is(await serverOf([...hosts], `?target_session_attrs=${attrs}`), server, `${attrs} with ${hosts.join(',')}`);
      }
    }
    const seen = new Set<string>();
    for (let i = 0; i < 24; i++)
      seen.add(await serverOf([...standbys, primary], '?target_session_attrs=standby&load_balance_hosts=random'));
    assert.equal([...seen].sort(), [...standbys].sort(), 'load_balance_hosts=random spreads new connections over every fitting host');
  });

  test.after(async () => {
    for (const db of opened) await (await db).destroy();
    await (await setup)?.drop();
  });
  test.run();
} else console.log('failover/behaviour: PG_HA_URL unset, the multi-host run skipped');
