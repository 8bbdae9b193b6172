/**
 * Summarises a V8 `.cpuprofile` (from `node --cpu-prof`): self time by function and by
 * package/file, so a hot path is read from data, not guessed.
 *
 *   node --import tsx test/bench/profile-summary.ts .cache/bench/profiles/CPU.*.cpuprofile [top]
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export function summarise(file: string, top = 25): string {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  let total = 0;
  const fns = new Map<string, number>();
  const files = new Map<string, number>();
  for (const [id, us] of self) {
    total += us;
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    const where = url.replace(/^file:\/\/.*?node_modules\//, '').replace(/^file:\/\/.*\/(\.cache|src|adapters|test)\//, '$1/');
    fns.set(
      `${functionName || '(anonymous)'} ${where}:${lineNumber + 1}`,
      (fns.get(`${functionName || '(anonymous)'} ${where}:${lineNumber + 1}`) ?? 0) + us,
    );
    const pkg =
      url === ''
        ? `(${functionName})`
        : url.startsWith('node:')
          ? url
          : where
              .split('/')
              .slice(0, where.startsWith('@') ? 2 : 1)
              .join('/');
    files.set(pkg, (files.get(pkg) ?? 0) + us);
  }
  const lines = (m: Map<string, number>) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([k, us]) => `${((100 * us) / total).toFixed(1).padStart(5)}%  ${k}`);
  return [
    `total ${(total / 1e3).toFixed(0)} ms sampled`,
    '-- by package / file',
    ...lines(files),
    '-- by function (self)',
    ...lines(fns),
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const f of process.argv.slice(2).filter((a) => a.endsWith('.cpuprofile'))) {
    console.log(`== ${f}\n${summarise(f, Number(process.argv.find((a) => /^\d+$/.test(a)) ?? 25))}`);
  }
}
