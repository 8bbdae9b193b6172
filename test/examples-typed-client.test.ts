import { readFile } from 'node:fs/promises';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { SCHEMA_FILE, generateTypes } from '../examples/typed-client/generate.js';
import { main } from '../examples/typed-client/main.js';

test('the committed schema.d.ts is what openapi-typescript makes of the current document', async () => {
  const committed = await readFile(SCHEMA_FILE, 'utf8');
  // On a mismatch: npx tsx examples/typed-client/generate.ts, review the diff, commit it.
  assert.ok(committed === (await generateTypes()), 'examples/typed-client/schema.d.ts is stale: regenerate it');
});

test('the openapi-fetch example lists, creates, reads and gets typed errors', async () => {
  await main();
});

test.run();
