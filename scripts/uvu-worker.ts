/**
 * One worker of scripts/uvu-parallel.ts: runs the test files it is sent over IPC, one at a time, in
 * this one process, as uvu's CLI runs a list (files in one process share what helpers cache, such
 * as the in-memory PGlite). After each file it writes uvu's report, then a line the parent reads
 * as "file done", then asks for the next.
 */
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { FILE_DONE } from './uvu-totals.js';

declare global {
  var UVU_DEFER: number | undefined;
  var UVU_INDEX: number | undefined;
  var UVU_QUEUE: unknown[][];
}

globalThis.UVU_DEFER = 1; // what uvu's CLI sets: suites queue up until exec() runs them
const uvu = await import('uvu');

process.on('message', (message: { name: string; file: string } | 'end') => {
  if (message === 'end') {
    process.disconnect(); // nothing more: the process ends once the tests' own handles close
    return;
  }
  void runFile(message.name, message.file);
});

async function runFile(name: string, file: string): Promise<void> {
  globalThis.UVU_QUEUE.length = 0;
  globalThis.UVU_INDEX = 0;
  globalThis.UVU_QUEUE.push([name]);
  process.exitCode = 0;
  const cpuBefore = cpuMs();
  let code: number;
  try {
    await import(pathToFileURL(file).href);
    await uvu.exec();
    code = Number(process.exitCode ?? 0);
  } catch (error) {
    console.error(error);
    code = 1;
  }
  process.exitCode = 0;
  const cpu = cpuMs() - cpuBefore;
  process.stdout.write(`\n${FILE_DONE} ${JSON.stringify({ code, cpu })}\n`, () => process.send!('next'));
}

/** CPU time of this process and of the child processes it waited for (utime, stime, cutime, cstime). */
function cpuMs(): number {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) * 10;
}

process.send!('next');
