// The page of test/browser-tabs.test.ts and of the bench's tabs suite, bundled with esbuild: one
// store handle per tab on a shared idb:// directory, driven by puppeteer from several tabs at once.
import { PGlite } from '@electric-sql/pglite';
import { setupWorker } from 'msw/browser';
import { type BrowserStore, createBrowserStore } from 'petstore-router/browser';
import { createHandlers } from 'petstore-router/msw';
import { KEY } from './requests.js';

const ORIGIN = 'http://petstore.test';
const auth = { authorization: `Bearer ${KEY}` };
let store: BrowserStore | undefined;
/** The answers of the creates running now, as they come. */
const progress: Created[] = [];

export interface Created {
  status: number;
  id?: number;
  at: number; // Date.now() when answered
}

/**
 * Opens this tab's handle on `dataDir` (`noSharing`: as a browser without Web Locks); resolves with
 * the time to the first answer (a list) in ms, or the creation error's name and message.
 */
async function openStore(dataDir: string, noSharing = false): Promise<{ ms: number } | { error: string }> {
  if (noSharing) Object.defineProperty(Navigator.prototype, 'locks', { get: () => undefined, configurable: true });
  const start = performance.now();
  try {
    store = await createBrowserStore({ dataDir, keys: [KEY] });
    const first = await store.fetch(new Request(`${ORIGIN}/v1/pets`, { headers: auth }));
    if (first.status !== 200) throw new Error(`first answer ${first.status}: ${await first.text()}`);
    return { ms: performance.now() - start };
  } catch (error) {
    return { error: `${(error as Error).name}: ${(error as Error).message}` };
  }
}

/** Creates pets named `${prefix}-0` … one after another (`together`: all at once). */
async function createPets(prefix: string, count: number, together = false): Promise<Created[]> {
  const one = async (n: number): Promise<Created> => {
    const res = await store!.fetch(
      new Request(`${ORIGIN}/v1/pets`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ name: `${prefix}-${n}`, categoryId: 1 }),
      }),
    );
    const body = (await res.json()) as { id?: number };
    const created = { status: res.status, id: body.id, at: Date.now() };
    progress.push(created);
    return created;
  };
  if (together) return Promise.all(Array.from({ length: count }, (_, n) => one(n)));
  const out: Created[] = [];
  for (let n = 0; n < count; n++) out.push(await one(n));
  return out;
}

/** Every pet the store lists, page after page. */
async function listPets(): Promise<{ id: number; name: string }[]> {
  const pets: { id: number; name: string }[] = [];
  let url: string | undefined = `${ORIGIN}/v1/pets?limit=100`;
  while (url) {
    const res: Response = await store!.fetch(new Request(url, { headers: auth }));
    if (res.status !== 200) throw new Error(`list ${res.status}: ${await res.text()}`);
    pets.push(...((await res.json()) as { id: number; name: string }[]));
    url = /<([^>]+)>;\s*rel="next"/.exec(res.headers.get('link') ?? '')?.[1];
  }
  return pets;
}

/** The bench's baseline: ms for a bare PGlite to open `dataDir` and answer `select 1` (then closed). */
async function barePGliteOpen(dataDir: string): Promise<number> {
  const start = performance.now();
  const pglite = await PGlite.create({ dataDir });
  await pglite.query('select 1');
  const ms = performance.now() - start;
  await pglite.close();
  return ms;
}

async function closeStore(): Promise<void> {
  await store?.close();
  store = undefined;
}

/** This tab's app calls its API with fetch; MSW's worker answers them through the shared store. */
async function throughMsw(name: string): Promise<{ created: number; names: string[] }> {
  const worker = setupWorker(...createHandlers(store!, { baseUrl: 'https://api.example.com' }));
  await worker.start({ onUnhandledRequest: 'bypass', quiet: true });
  const headers = { ...auth, 'content-type': 'application/json' };
  const created = await fetch('https://api.example.com/v1/pets', {
    method: 'POST',
    headers,
    body: JSON.stringify({ name, categoryId: 1 }),
  });
  const list = (await (await fetch('https://api.example.com/v1/pets?limit=100', { headers })).json()) as { name: string }[];
  worker.stop();
  return { created: created.status, names: list.map((pet) => pet.name) };
}

Object.assign(globalThis, { progress, openStore, createPets, listPets, closeStore, throughMsw, barePGliteOpen });
