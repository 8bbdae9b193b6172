import { request as httpRequest } from 'node:http';

/** The JSON lines of a server's stdout (its access log), the listening line left out. */
export function logLines(stdout: string): Record<string, any>[] {
  return stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, any>);
}

/** GET a metrics URL: status, content type and the text. */
export function scrape(url: string): Promise<{ status: number; type: string; text: string }> {
  return new Promise((resolve, reject) => {
    httpRequest(url, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode!, type: String(res.headers['content-type']), text }));
    })
      .on('error', reject)
      .end();
  });
}

/** The value of the sample `name{labels}` whose labels include all of `labels` (summed over the rest). */
export function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  let sum = 0;
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const got = Object.fromEntries([...(m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((l) => [l[1], l[2]]));
    if (Object.entries(labels).every(([k, v]) => got[k] === v)) sum += Number(m[3]);
  }
  return sum;
}

/** Waits until `check()` is true (polling), or throws after `ms`. */
export async function until(check: () => boolean, what: string, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
