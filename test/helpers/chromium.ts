import { existsSync } from 'node:fs';
import { join } from 'node:path';
import puppeteer, { type Browser } from 'puppeteer-core';

/**
 * Debian's chromium, driven by puppeteer-core (which downloads no browser). In CI it must be
 * there (.ci/run installs it); elsewhere a test without it reports itself skipped.
 */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const HAS_CHROMIUM = existsSync(CHROMIUM);
if (!HAS_CHROMIUM && process.env.CI) throw new Error(`${CHROMIUM} is missing: .ci/run installs Debian's chromium`);

// This machine's network is closed: without the background-networking flags chromium's own
// connections are refused many at a time, and QUIC probing adds more.
const FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Headless chromium with a new profile in `dir`/profile. */
export function launchChromium(dir: string): Promise<Browser> {
  return puppeteer.launch({ executablePath: CHROMIUM, headless: true, args: FLAGS, userDataDir: join(dir, 'profile'), timeout: 60_000 });
}
