// Health probes from a process of their own (so the test's client loops never delay them):
//   node health-probe.mjs BASE_URL EVERY_MS
// probes GET /health, GET /health/ and HEAD /health on fresh connections every EVERY_MS until its
// stdin ends, then prints one JSON line: [{ what, status, ms }].
import { request } from 'node:http';

const [base, everyText] = process.argv.slice(2);
const probes = [];
let done = false;
process.stdin.on('data', () => {}).on('end', () => (done = true));

function probe(method, path) {
  const started = performance.now();
  return new Promise((resolve) => {
    const req = request(`${base}${path}`, { method, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve({ what: `${method} ${path}`, status: res.statusCode, ms: performance.now() - started }));
    });
    req.setTimeout(5_000, () => req.destroy());
    req.on('error', () => resolve({ what: `${method} ${path}`, status: 0, ms: performance.now() - started }));
    req.end();
  });
}

while (!done) {
  probes.push(...(await Promise.all([probe('GET', '/health'), probe('GET', '/health/'), probe('HEAD', '/health')])));
  await new Promise((r) => setTimeout(r, Number(everyText)));
}
process.stdout.write(`${JSON.stringify(probes)}\n`);
