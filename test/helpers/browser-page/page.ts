// The page of test/browser-store.test.ts, bundled with esbuild: a pet store on PGlite in the tab
// (petstore-router/browser), and the same store behind MSW's service worker (petstore-router/msw).
import { setupWorker } from 'msw/browser';
import { createBrowserStore } from 'petstore-router/browser';
import { createHandlers } from 'petstore-router/msw';
import { type Answer, KEY, answerOf, listRequest, scenarioRequests } from './requests.js';

async function scenario(dataDir: string): Promise<Answer[]> {
  const store = await createBrowserStore({ dataDir, keys: [KEY] });
  const answers: Answer[] = [];
  for (const request of scenarioRequests()) answers.push(await answerOf(await store.fetch(request)));
  // Not closed: a reload must find what each answered write left in IndexedDB.
  return answers;
}

async function afterReload(dataDir: string): Promise<Answer> {
  const store = await createBrowserStore({ dataDir, keys: [KEY] });
  const answer = await answerOf(await store.fetch(listRequest()));
  await store.close();
  return answer;
}

async function withMsw(elsewhere: string): Promise<{ created: number; list: unknown; elsewhere: string }> {
  const store = await createBrowserStore({ keys: [KEY] });
  const worker = setupWorker(...createHandlers(store, { baseUrl: 'https://api.example.com' }));
  await worker.start({ onUnhandledRequest: 'bypass', quiet: true });
  const headers = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };
  const created = await fetch('https://api.example.com/v1/pets', { method: 'POST', headers, body: '{"name":"Rex","categoryId":1}' });
  const list: unknown = await (await fetch('https://api.example.com/v1/pets', { headers })).json();
  const other = await (await fetch(elsewhere)).text();
  worker.stop();
  await store.close();
  return { created: created.status, list, elsewhere: other };
}

Object.assign(globalThis, { scenario, afterReload, withMsw });

/** What a store started with `snapshot` answered, and what it printed on the console as warnings. */
interface SnapshotRun {
  answers: Answer[];
  warnings: string[];
}

/** Runs `fn` and collects the console.warn lines of petstore-router meanwhile. */
async function warningsOf<T>(fn: () => Promise<T>): Promise<{ value: T; warnings: string[] }> {
  const warnings: string[] = [];
  const warn = console.warn;
  console.warn = (...args: unknown[]) => {
    warnings.push(args.map(String).join(' '));
    warn(...args);
  };
  try {
    return { value: await fn(), warnings };
  } finally {
    console.warn = warn;
  }
}

/** The scenario on a store started with `snapshot` (a URL of the served directory). */
async function snapshotScenario(dataDir: string | undefined, snapshot: string): Promise<SnapshotRun> {
  const { value: answers, warnings } = await warningsOf(async () => {
    // `undefined` crosses page.evaluate as null.
    const store = await createBrowserStore({ dataDir: dataDir ?? undefined, keys: [KEY], snapshot });
    const answers: Answer[] = [];
    for (const request of scenarioRequests()) answers.push(await answerOf(await store.fetch(request)));
    if (!dataDir) await store.close(); // an idb:// store stays open: the reload must find its writes
    return answers;
  });
  return { answers, warnings };
}

/** The list a store started with `snapshot` answers first (a marked snapshot holds a pet of its own). */
async function snapshotList(dataDir: string | undefined, snapshot: string): Promise<{ list: Answer; warnings: string[] }> {
  const { value: list, warnings } = await warningsOf(async () => {
    const store = await createBrowserStore({ dataDir: dataDir ?? undefined, keys: [KEY], snapshot });
    const answer = await answerOf(await store.fetch(listRequest()));
    await store.close();
    return answer;
  });
  return { list, warnings };
}

/** Forgets which idb:// stores this origin opened (petstore-router's own hint), as a new browser profile would. */
async function forgetKnownStores(): Promise<void> {
  await new Promise((resolve, reject) => {
    const request = indexedDB.deleteDatabase('petstore-router');
    request.onsuccess = resolve;
    request.onerror = reject;
  });
}

/**
 * Time from createBrowserStore to the first answer (a list), with and without the snapshot,
 * `rounds` times each, interleaved so both see the same machine: in memory, or (`idb`) each time in
 * a new idb:// directory, whose first answer waits for the whole directory to be written.
 */
async function firstAnswers(rounds: number, snapshots: string[], idb = false): Promise<Record<string, number[]>> {
  const times: Record<string, number[]> = { none: [] };
  for (const snapshot of snapshots) times[snapshot] = [];
  for (let round = 0; round < rounds; round++) {
    for (const [index, snapshot] of ['none', ...snapshots].entries()) {
      const dataDir = idb ? `idb://first-answer-${round}-${index}` : undefined;
      const start = performance.now();
      const store = await createBrowserStore({ dataDir, keys: [KEY], ...(snapshot === 'none' ? {} : { snapshot }) });
      const answer = await store.fetch(listRequest());
      if (answer.status !== 200) throw new Error(`first answer ${answer.status}`);
      times[snapshot]!.push(performance.now() - start);
      await store.close();
    }
  }
  return times;
}

Object.assign(globalThis, { snapshotScenario, snapshotList, forgetKnownStores, firstAnswers });
