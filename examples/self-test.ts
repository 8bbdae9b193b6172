// The self-test every mounting example under /api runs (EXAMPLE_SELF_TEST=1): a create answered
// 201 with `Location: /api/v1/pets/{id}`, the page `Link` keeping the prefix, the API reference
// page, and the host app's own 404 for a path outside the store. Prints one `self-test:` line and
// returns the exit code. The docs page is also rendered in Chromium by test/mounting.test.ts.

/** Checks the mounting at `origin`; `host` is the name the host's not-found handler answers with. */
export async function selfTest(origin: string, key: string, host: string): Promise<number> {
  const auth = { authorization: `Bearer ${key}` };
  const signal = () => AbortSignal.timeout(5_000); // a hang would be a body already read by the host
  const problems: string[] = [];
  const ids: string[] = [];
  for (const name of ['Espresso', 'Latte']) {
    const res = await fetch(`${origin}/api/v1/pets`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ name, categoryId: 1 }),
      signal: signal(),
    });
    const pet = (await res.json()) as { id?: number };
    const location = res.headers.get('location') ?? '';
    if (res.status !== 201) problems.push(`POST /api/v1/pets -> ${res.status}`);
    else if (new URL(location, origin).pathname !== `/api/v1/pets/${pet.id}`) problems.push(`Location ${location}`);
    ids.push(new URL(location, origin).pathname);
  }
  const page = await fetch(`${origin}/api/v1/pets?limit=1`, { headers: auth, signal: signal() });
  const next = /<([^>]+)>;\s*rel="next"/.exec(page.headers.get('link') ?? '')?.[1];
  if (page.status !== 200 || !next || !new URL(next, origin).pathname.startsWith('/api/v1/pets')) problems.push(`Link ${next}`);
  const docs = await fetch(`${origin}/api/v1/docs`, { signal: signal() });
  if (docs.status !== 200) problems.push(`GET /api/v1/docs -> ${docs.status}`);
  const other = await fetch(`${origin}/api/elsewhere`, { signal: signal() });
  const body = (await other.json().catch(() => ({}))) as { host?: string };
  if (other.status !== 404 || body.host !== host)
    problems.push(`GET /api/elsewhere -> ${other.status} from ${body.host ?? 'not the host'}`);
  console.log(
    `self-test: created ${ids.join(', ')}; next page ${next}; docs ${docs.status}; /api/elsewhere ${other.status} from ${body.host}` +
      (problems.length ? `; FAILED: ${problems.join('; ')}` : ''),
  );
  return problems.length === 0 ? 0 : 1;
}
