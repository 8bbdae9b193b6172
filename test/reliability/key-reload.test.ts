import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { assertEveryAcknowledgedListedOnce, createPets, listAll, sleep, within } from './helpers/load.js';
import { postgresTest } from '../helpers/postgres-test.js';
import { onFreshDatabase } from './helpers/postgres.js';
import { KEY, assertNoKeyInLogs, startServer, stopGracefully, tempDataDir } from './helpers/server.js';
import { tempDir } from '../helpers/temp-dir.js';

/**
 * SIGHUP every 150 ms while 8 clients create pets with KEY: the file alternates between sets that
 * all hold KEY (plus a rotating second key), an empty file and a missing one. No request may fail
 * or be refused: a reload swaps the key set between requests, never under one.
 */
async function reloadUnderLoad(label: string, args: string[], reloadLine: RegExp) {
  const keysFile = join(tempDir('petstore-reload-'), 'keys.txt');
  writeFileSync(keysFile, `${KEY}\n`);
  const server = await startServer([...args, '--keys-file', keysFile], { keys: null });
  try {
    let stop = false;
    const load = createPets({ urls: [server.url], concurrency: 8, stop: () => stop, timeoutMs: 15_000, label });
    await sleep(500);
    let signals = 0;
    for (let round = 0; round < 20; round++) {
      if (round % 5 === 3) writeFileSync(keysFile, '# emptied by mistake\n');
      else if (round % 5 === 4) rmSync(keysFile, { force: true });
      else writeFileSync(keysFile, `other-${round}-key\n${KEY}\n`);
      server.child.kill('SIGHUP');
      signals++;
      await sleep(150);
    }
    writeFileSync(keysFile, `${KEY}\n`);
    server.child.kill('SIGHUP');
    signals++;
    await sleep(300);
    stop = true;
    const result = await within(load, 20_000, 'the load');
    console.log(`  ${label}: ${signals} SIGHUPs under load; outcomes ${JSON.stringify(Object.fromEntries(result.outcomes))}`);
    assert.equal(result.refusals, [], 'no request failed or was refused during the reloads');
    assert.ok(result.acknowledged.size > 50, `the load ran: ${result.acknowledged.size} pets`);
    // One line per SIGHUP. Which file content a signal met depends on when the busy server got
    // to it, so only the totals and the last line are certain.
    const sighupLines = () =>
      server
        .stderr()
        .split('\n')
        .filter((l) => l.includes('SIGHUP'));
    const deadline = Date.now() + 10_000;
    while (sighupLines().length < signals && Date.now() < deadline) await sleep(50);
    const lines = sighupLines();
    assert.is(lines.length, signals, 'one line per SIGHUP');
    assert.ok(
      lines.every((l) => reloadLine.test(l) || /the keys in use stay$/.test(l)),
      lines.join('\n'),
    );
    assert.ok(lines.filter((l) => /the keys in use stay$/.test(l)).length >= 1, 'bad files were met, and kept the keys');
    assert.match(lines.at(-1)!, reloadLine);
    const listed = await listAll(server.url);
    assert.is(assertEveryAcknowledgedListedOnce(result.acknowledged, listed), 0);
    assert.is((await stopGracefully(server)).code, 0);
    assertNoKeyInLogs(server);
  } finally {
    server.child.kill('SIGKILL');
  }
}

test('SIGHUP reloads under load (PGlite): no request fails, bad files keep the keys', async () => {
  await reloadUnderLoad('pglite', ['--data-dir', tempDataDir()], /in use for new requests$/);
});

postgresTest(test, 'SIGHUP reloads under load (PostgreSQL, --workers 2): no request fails, every worker reloads', async (databaseUrl) => {
  await onFreshDatabase(databaseUrl, 'reload', (url) =>
    reloadUnderLoad('postgres-workers', ['--database', url, '--workers', '2'], /in use for new requests \(all 2 workers\)$/),
  );
});

test.run();
