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
