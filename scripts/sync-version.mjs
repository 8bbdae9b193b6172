// `npm version` runs this (package.json's `version` script) after it bumps package.json: it writes
// the new version into src/version.ts, which a browser page reads instead of package.json.
import { readFileSync, writeFileSync } from 'node:fs';

const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const file = new URL('../src/version.ts', import.meta.url);
const text = readFileSync(file, 'utf8');
const next = text.replace(/export const PACKAGE_VERSION = '[^']*';/, `export const PACKAGE_VERSION = '${version}';`);
if (!next.includes(`'${version}'`)) throw new Error('src/version.ts: PACKAGE_VERSION not found');
writeFileSync(file, next);
