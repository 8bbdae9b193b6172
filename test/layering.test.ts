import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';

// The architecture as rules on import specifiers: data flows adapter -> store -> pipeline ->
// route -> schemas -> storage -> Kysely, and each boundary is checked here, not just described.
const root = join(import.meta.dirname, '..');

function files(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(join(root, dir))) {
    const path = join(dir, name);
    if (name === 'node_modules' || name.startsWith('.')) continue;
    if (statSync(join(root, path)).isDirectory()) out.push(...files(path));
    else if (/\.(ts|mts|tsx)$/.test(name) && !name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

interface Import {
  file: string;
  specifier: string;
  typeOnly: boolean;
}

function imports(file: string): Import[] {
  const text = readFileSync(join(root, file), 'utf8');
  const found: Import[] = [];
  const re = /^\s*(import|export)\s+(type\s+)?(?:[^'"]*?\sfrom\s+)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/gm;
  for (const m of text.matchAll(re)) found.push({ file, specifier: m[3] ?? m[4]!, typeOnly: Boolean(m[2]) });
  return found;
}

const violations = (list: Import[], bad: (i: Import) => boolean) => list.filter(bad).map((i) => `${i.file}: ${i.specifier}`);

const src = files('src').flatMap(imports);

test('src/ never imports adapters/, examples/ or test/', () => {
  assert.equal(
    violations(src, (i) => /(^|\/)(adapters|examples|test)\//.test(i.specifier)),
    [],
  );
});

test('adapters/ and examples/ use only public entry points, never src/', () => {
  const outside = [...files('adapters'), ...files('examples')].flatMap(imports);
  assert.ok(outside.length > 0);
  assert.equal(
    violations(outside, (i) => /(^|\/)src\//.test(i.specifier)),
    [],
  );
});

// The shared PGlite of petstore-router/testing (its schemas and per-store views) is driver code too.
const TEST_STORE_DRIVER = ['src/testing/schema-pool.ts', 'src/testing/schema-view.ts'];

test('routes ask the repositories: no file of src/routes/ imports src/drivers/', () => {
  assert.equal(
    violations(src, (i) => i.file.startsWith('src/routes/') && /(^|\/)drivers\//.test(i.specifier)),
    [],
  );
});

test('SQLSTATE and errno literals are written in src/drivers/classify.ts alone', () => {
  const literal = /['"](?:[0-9][0-9A-Z]{4}|E(?!RR_)[A-Z]{3,}[A-Z_]*)['"]/;
  const holding = files('src').filter((file) => literal.test(readFileSync(join(root, file), 'utf8')));
  assert.equal(holding, ['src/drivers/classify.ts']);
});

test('only src/drivers/ imports the database drivers (pg, PGlite)', () => {
  const drivers = /^(pg|@electric-sql\/pglite)(\/|$)/;
  assert.equal(
    violations(src, (i) => drivers.test(i.specifier) && !i.file.startsWith('src/drivers/') && !TEST_STORE_DRIVER.includes(i.file)),
    [],
  );
});

test('nothing reads or writes a private or @internal member of the database drivers or Kysely', () => {
  // pg's Query/Result/Client internals and Kysely's @internal executor API.
  const forbidden =
    /\b_(?:rowMode|result|results|types|queryQueue|sentQueryQueue|pulseQueryQueue|connected|connecting|ending|clients|idle|parseRowAsArray)\b|\b(?:getExecutor|provideConnection|parsedStatements|submittedNamedStatements|connectionParameters)\b/;
  for (const file of [...files('src'), ...files('adapters')]) {
    const text = readFileSync(join(root, file), 'utf8');
    assert.not.match(text, forbidden, `${file} reaches into a dependency's private members`);
  }
});

test('the drivers never patch a client method', () => {
  for (const file of files('src/drivers')) {
    const text = readFileSync(join(root, file), 'utf8');
    assert.not.match(text, /\.(?:query|connect|release)\s*=(?!=)/, `${file} assigns a client method`);
  }
});

test('the core never imports a runtime module (node:*), so it runs on every runtime', () => {
  // The pg driver runs where pg runs (Node and runtimes with Node's modules); it needs node:net.
  // The PGlite snapshot's file cache and its data-directory check need node:fs; PGlite's entry
  // loads them only through a dynamic import (the check only for a `dataDir`), and a caller that
  // passes its own snapshot (a browser) never loads them.
  // PGlite's WebAssembly read ahead (src/drivers/pglite/wasm.ts): the same, and the test stores.
  const nodeOnly = (f: string) =>
    f.startsWith('src/drivers/pg/') || ['src/snapshot/cache.ts', 'src/snapshot/data-dir.ts', 'src/drivers/pglite/wasm.ts'].includes(f);
  assert.equal(
    violations(src, (i) => i.specifier.startsWith('node:') && !i.typeOnly && !nodeOnly(i.file)),
    [],
  );
});

test('only storage/ writes SQL: elsewhere Kysely is imported for types only', () => {
  const allowed = (f: string) => f.startsWith('src/storage/') || f.startsWith('src/drivers/') || TEST_STORE_DRIVER.includes(f);
  assert.equal(
    violations(src, (i) => /^kysely(\/|$)/.test(i.specifier) && !i.typeOnly && !allowed(i.file)),
    [],
  );
  for (const file of files('src').filter((f) => !allowed(f))) {
    const text = readFileSync(join(root, file), 'utf8');
    assert.not.match(text, /\.(selectFrom|insertInto|updateTable|deleteFrom)\(|\bsql`/, `${file} writes SQL`);
  }
});

test('only the answer primitives (src/http/answer.ts) build Responses in the core', () => {
  for (const file of files('src')) {
    if (file === 'src/http/answer.ts') continue;
    const text = readFileSync(join(root, file), 'utf8');
    assert.not.match(text, /new Response\(/, `${relative(root, join(root, file))} builds a Response`);
  }
});

/**
 * The floors of src/ (CONTRIBUTING.md, "Floors"): a file imports only from its own floor or the
 * floors below. Rooms are a file directly under src/ or the first folder under it.
 */
const FLOORS: Record<string, number> = {
  'src/http': 0,
  'src/options': 0,
  'src/wire.ts': 0,
  'src/errors.ts': 0,
  'src/error-kinds.ts': 0,
  'src/model.ts': 0,
  'src/deprecation.ts': 0,
  'src/openapi-types.ts': 0,
  'src/version.ts': 0,
  'src/schemas': 0,
  'src/drivers': 1,
  'src/storage': 2,
  'src/routes': 3,
  'src/openapi': 3,
  'src/docs': 3,
  'src/add-order.ts': 3,
  'src/pipeline': 4,
  'src/store.ts': 5,
  'src/index.ts': 5,
  'src/pg.ts': 5,
  'src/pglite.ts': 5,
  'src/testing.ts': 5,
  'src/browser.ts': 5,
  'src/browser': 5,
  'src/testing': 5,
  'src/snapshot': 5,
};

function roomOf(file: string): string {
  const parts = file.split('/');
  return parts.length === 2 ? file : `${parts[0]}/${parts[1]}`;
}

test('every room of src/ has a floor, and each file imports only from its floor or below', () => {
  const unplaced = [...new Set(files('src').map(roomOf))].filter((room) => FLOORS[room] === undefined);
  assert.equal(unplaced, [], 'rooms without a floor: add them to FLOORS and to CONTRIBUTING.md');
  const upward = src.flatMap((i) => {
    if (!i.specifier.startsWith('.')) return [];
    const target = join(i.file, '..', i.specifier).replace(/\.js$/, '.ts');
    const from = FLOORS[roomOf(i.file)]!;
    const to = FLOORS[roomOf(relative('.', target))];
    return to !== undefined && to > from ? [`${i.file} (floor ${from}) -> ${target} (floor ${to})`] : [];
  });
  assert.equal(upward, []);
});

/** The text of a file without its comments (rules are about code, not about prose naming them). */
function code(file: string): string {
  return readFileSync(join(root, file), 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
}

const coreAndAdapters = [...files('src'), ...files('adapters')];

test('the core never asks which runtime it is on (no process.versions, no globalThis.Deno/Bun)', () => {
  for (const file of files('src')) {
    assert.not.match(
      code(file),
      /process\s*\.\s*versions|\bprocess\?\.versions|globalThis\.(Deno|Bun)\b|['"]versions['"]/,
      `${file} sniffs the runtime`,
    );
  }
});

test('no Symbol.for protocol: the core takes standard Requests, adapters meet it through public entry points', () => {
  for (const file of coreAndAdapters) {
    const text = code(file);
    assert.not.match(text, /Symbol\.for\(/, `${file} declares a registered-symbol protocol`);
  }
});

test("no other library's private state: no getOwnPropertySymbols, no Symbol(state), no _private members", () => {
  for (const file of coreAndAdapters) {
    const text = code(file);
    assert.not.match(
      text,
      /getOwnPropertySymbols|Reflect\.ownKeys|description\s*===\s*['"]state['"]|Symbol\(state\)/,
      `${file} reads another library's hidden state`,
    );
    // `x._member`: a private member by convention (pg's _rowMode, Node's socket._httpMessage).
    // body-parser 1's `req._body` flag is the one exception: Express documents no other way to
    // tell that a parser already read the stream (adapters/express.ts).
    const stripped = file === 'adapters/express.ts' ? text.replace(/\._body\b/g, '') : text;
    assert.not.match(stripped, /\.\s*_[A-Za-z]\w*/, `${file} touches a private member`);
  }
});

test('the core and the library adapters never import prom-client (only the standalone server does)', () => {
  const library = [
    ...src,
    ...files('adapters')
      .filter((f) => !f.startsWith('adapters/cli'))
      .flatMap(imports),
  ];
  assert.equal(
    violations(library, (i) => /^prom-client(\/|$)/.test(i.specifier)),
    [],
  );
});

/** Every package a module of src/ loads with it: its static value imports, followed through our own files. */
function staticPackages(entry: string): Set<string> {
  const packages = new Set<string>();
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const re = /^\s*(?:import|export)\s+(?!type\s)(?:[^'"]*?\sfrom\s+)?['"]([^'"]+)['"]/gm;
    for (const [, specifier] of code(file).matchAll(re)) {
      if (specifier!.startsWith('.')) visit(relative(root, join(root, file, '..', specifier!)).replace(/\.js$/, '.ts'));
      else packages.add(specifier!);
    }
  };
  visit(entry);
  return packages;
}

test('importing petstore-router/pglite loads no Kysely: PGlite starts while Kysely loads (src/pglite.ts)', () => {
  const loaded = [...staticPackages('src/pglite.ts')];
  assert.ok(loaded.includes('@electric-sql/pglite'), loaded.join(', '));
  assert.equal(
    loaded.filter((name) => /^kysely(\/|$)/.test(name)),
    [],
  );
});

test.run();
