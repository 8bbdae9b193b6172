import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { send } from './helpers/load.js';
import { KEY, assertNoKeyInLogs, startServer, stopGracefully, tempDataDir } from './helpers/server.js';

/**
 * Keys never reach the CLI's logs. Every other reliability test checks its servers' stdout and
 * stderr too (outages, crashes, shutdowns); this one adds wrong keys presented by clients and the
 * generated key, which may appear once, in its announcement line.
 */
test('no configured or presented key in the logs; a generated key only in its one announcement line', async () => {
  const wrong = ['wrong-key-abcdefghijklmnop', `${KEY}x`, `Basic ${Buffer.from(`u:${KEY}`).toString('base64')}`];
  const configured = await startServer(['--data-dir', tempDataDir()]);
  try {
    for (const authorization of wrong) {
      const a = await send(`${configured.url}/pets`, { headers: { authorization } });
      assert.is(a.status, 401);
    }
    assert.is((await send(`${configured.url}/pets`)).status, 200);
    assert.is((await stopGracefully(configured)).code, 0);
    assertNoKeyInLogs(configured, [KEY, 'wrong-key-abcdefghijklmnop']);
  } finally {
    configured.child.kill('SIGKILL');
  }

  const generated = await startServer(['--data-dir', tempDataDir()], { keys: null });
  try {
    // Announced on stderr just after the listening line on stdout.
    for (let i = 0; i < 50 && !/Bearer \S+'/.test(generated.stderr()); i++) await new Promise((r) => setTimeout(r, 100));
    const key = /Bearer (\S+?)'/.exec(generated.stderr())?.[1];
    assert.ok(key && key.length >= 20, `a generated key was announced: ${generated.stderr()}`);
    assert.is((await send(`${generated.url}/pets`, { key })).status, 200);
    assert.is((await send(`${generated.url}/pets`, { key: `${key}x` })).status, 401);
    assert.is((await stopGracefully(generated)).code, 0);
    assertNoKeyInLogs(generated, [KEY], key);
  } finally {
    generated.child.kill('SIGKILL');
  }
});

test.run();
