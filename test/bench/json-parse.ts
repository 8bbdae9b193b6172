// The exact-int64 parse of a create's body, three ways, interleaved in one run: ours
// (src/http/json-parse.ts), JSON.parse with a reviver reading each number's source text, and
// lossless-json. Prints ns per parse and each one's ratio to JSON.parse-with-source.
//   node --import tsx test/bench/json-parse.ts
import { isInteger, parse as losslessParse } from 'lossless-json';
import { parseJson } from '../../src/http/json-parse.js';

const BODIES = ['{"name":"Rex","categoryId":7}', '{"name":"Rex the third","categoryId":9007199254740993,"status":"pending"}'];
const INTEGER = /^-?(?:0|[1-9]\d*)$/;

function withSource(text: string): unknown {
  return JSON.parse(text, (_key, value: unknown, context?: { source?: string }) =>
    typeof value === 'number' && INTEGER.test(context!.source!) ? BigInt(context!.source!) : value,
  );
}
const lossless = (text: string) => losslessParse(text, null, (n: string) => (isInteger(n) ? BigInt(n) : Number(n)));

const ways: [string, (text: string) => unknown][] = [
  ['ours', parseJson],
  ['JSON.parse + source', withSource],
  ['lossless-json', lossless],
];
/** The markdown table of this run. */
export function runJsonParse(): string {
  const N = 200_000;
  const ns: Record<string, number[]> = {};
  for (let round = 0; round < 7; round++) {
    for (const [name, parse] of ways) {
      const started = process.hrtime.bigint();
      for (let i = 0; i < N; i++) parse(BODIES[i & 1]!);
      (ns[name] ??= []).push(Number(process.hrtime.bigint() - started) / N);
    }
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
  const base = median(ns['JSON.parse + source']!);
  const rows = ways.map(([name]) => `| ${name} | ${median(ns[name]!).toFixed(0)} | ${(median(ns[name]!) / base).toFixed(2)}x |`);
  return ['| parser | ns per parse | / JSON.parse + source |', '| --- | --- | --- |', ...rows].join('\n');
}
